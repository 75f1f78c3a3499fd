import { describe, expect, it } from 'vitest';
import {
  ASPECT_IDS,
  createRuleAnalyzer,
  defaultVocabulary,
  mergeVocabulary,
  tokenize,
} from '../../../src/domain/insights/absa/index.ts';
import type { Vocabulary, VocabularyExtension } from '../../../src/domain/insights/absa/index.ts';
import rawVocabulary from '../../../src/domain/insights/aspect-vocabulary.json' with { type: 'json' };

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('aspect-vocabulary.json', () => {
  it('has every aspect with all five lists, and every list non-empty where it matters', () => {
    const aspects = (rawVocabulary as { aspects: Record<string, Record<string, unknown>> }).aspects;
    expect(Object.keys(aspects).sort()).toEqual([...ASPECT_IDS].sort());
    for (const id of ASPECT_IDS) {
      const a = aspects[id];
      for (const key of ['cues', 'weakCues', 'genericCues', 'positive', 'negative']) {
        expect(Array.isArray(a?.[key]), `${id}.${key}`).toBe(true);
      }
      expect(defaultVocabulary.aspects[id].cues.length, `${id}.cues`).toBeGreaterThan(0);
      expect(defaultVocabulary.aspects[id].positive.length, `${id}.positive`).toBeGreaterThan(0);
      expect(defaultVocabulary.aspects[id].negative.length, `${id}.negative`).toBeGreaterThan(0);
    }
  });
  it('contains the roofing terms the analyzer relies on', () => {
    const v = defaultVocabulary.aspects;
    expect(v.cleanup.cues).toEqual(expect.arrayContaining(['magnet sweep', 'debris', 'dumpster']));
    expect(v.materials.cues).toEqual(expect.arrayContaining(['gaf', 'owens corning']));
    expect(v.insurance.cues).toEqual(expect.arrayContaining(['adjuster', 'claim', 'deductible', 'supplement']));
    expect(v.workmanship.negative).toEqual(expect.arrayContaining(['still leaks']));
    expect(v.communication.negative).toEqual(expect.arrayContaining(['never called back', 'ghosted']));
    expect(v.price.negative).toEqual(expect.arrayContaining(['hidden fees']));
    expect(v.timeliness.positive).toEqual(expect.arrayContaining(['on time']));
  });
  it('has no phrase that reduces to nothing or to a lone function word', () => {
    const FUNCTION_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'it', 'be', 'i', 'we', 'they']);
    const lists: [string, readonly string[]][] = [];
    for (const id of ASPECT_IDS) {
      for (const [k, l] of Object.entries(defaultVocabulary.aspects[id])) lists.push([`${id}.${k}`, l]);
    }
    for (const [k, l] of Object.entries(defaultVocabulary.sentiment)) lists.push([`sentiment.${k}`, l]);
    for (const [name, list] of lists) {
      for (const phrase of list) {
        const words = phrase.split(/\s+/).filter((w) => !['*', '#', '$'].includes(w));
        const toks = words.flatMap((w) => tokenize(w.replace(/^=/, '')));
        const label = `${name}: ${JSON.stringify(phrase)}`;
        if (phrase.trim() === '$') continue;
        expect(toks.length, label).toBeGreaterThan(0);
        if (toks.length === 1) expect(FUNCTION_WORDS.has(toks[0]?.lower ?? ''), label).toBe(false);
      }
    }
  });
});

describe('mergeVocabulary', () => {
  const base = deepFreeze(structuredClone(defaultVocabulary)) as Vocabulary;

  it('adds phrases from a partial extension and keeps the base first', () => {
    const ext: VocabularyExtension = {
      aspects: { materials: { cues: ['StormMaster'] }, communication: { positive: ['the portal updates'] } },
      sentiment: { positive: ['bodacious'] },
      otherParty: ['the HOA'],
    };
    const merged = mergeVocabulary(base, ext);
    expect(merged.aspects.materials.cues.slice(0, base.aspects.materials.cues.length)).toEqual(base.aspects.materials.cues);
    expect(merged.aspects.materials.cues.at(-1)).toBe('StormMaster');
    expect(merged.aspects.communication.positive.at(-1)).toBe('the portal updates');
    expect(merged.sentiment.positive.at(-1)).toBe('bodacious');
    expect(merged.otherParty.at(-1)).toBe('the HOA');
    expect(merged.aspects.cleanup).toEqual(base.aspects.cleanup);
    expect(merged.negators).toEqual(base.negators);
  });
  it('does not modify its arguments (base is deeply frozen here)', () => {
    const ext = { aspects: { cleanup: { cues: ['leaf blower sweep'] } } };
    const before = JSON.stringify(ext);
    expect(() => mergeVocabulary(base, ext)).not.toThrow();
    expect(JSON.stringify(ext)).toBe(before);
    expect(base.aspects.cleanup.cues).not.toContain('leaf blower sweep');
  });
  it('ignores duplicates (case-insensitively), blanks, and unknown aspects', () => {
    const ext = {
      aspects: { cleanup: { cues: ['MAGNET SWEEP', '  ', 'yard rake'] }, plumbing: { cues: ['pipe'] } },
    } as unknown as VocabularyExtension;
    const merged = mergeVocabulary(base, ext);
    expect(merged.aspects.cleanup.cues.length).toBe(base.aspects.cleanup.cues.length + 1);
    expect(merged.aspects.cleanup.cues.at(-1)).toBe('yard rake');
    expect(Object.keys(merged.aspects)).toEqual([...ASPECT_IDS]);
  });
  it('treats a missing extension as no change', () => {
    expect(mergeVocabulary(base, undefined)).toEqual(base);
    expect(mergeVocabulary(base, null)).toEqual(base);
    expect(mergeVocabulary(base, {})).toEqual(base);
  });
  it('an extension changes what the analyzer sees', () => {
    const text = 'The StormMaster on our house looks fantastic.';
    expect(createRuleAnalyzer(base).analyzeSentence(text).labels.map((l) => l.aspect)).not.toContain('materials');
    const extended = createRuleAnalyzer(mergeVocabulary(base, { aspects: { materials: { cues: ['StormMaster'] } } }));
    expect(extended.analyzeSentence(text).labels).toEqual([{ aspect: 'materials', sentiment: 'positive', score: 0.5, confidence: expect.any(Number) }]);
  });
});
