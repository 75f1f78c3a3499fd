import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAnalyzer, defaultVocabulary } from '../../../src/domain/insights/absa/index.ts';

const here = new URL('.', import.meta.url);
const holdout = readFileSync(new URL('../../../data/absa/holdout.jsonl', here), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => (JSON.parse(l) as { text: string }).text);

describe('determinism', () => {
  it('gives identical results on repeated calls and across analyzer instances', () => {
    const a = createAnalyzer();
    const b = createAnalyzer();
    const first = holdout.map((t) => a.analyzeSentence(t));
    const again = holdout.map((t) => a.analyzeSentence(t));
    const other = [...holdout].reverse().map((t) => b.analyzeSentence(t)).reverse();
    expect(again).toEqual(first);
    expect(other).toEqual(first);
    expect(a.analyzeText(holdout.join(' '))).toEqual(b.analyzeText(holdout.join(' ')));
  });
  it('does not mutate the vocabulary', () => {
    const before = JSON.stringify(defaultVocabulary);
    const a = createAnalyzer();
    for (const t of holdout) a.analyzeSentence(t);
    expect(JSON.stringify(defaultVocabulary)).toBe(before);
  });
});
