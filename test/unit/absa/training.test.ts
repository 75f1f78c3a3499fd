import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAllLabelled, RULES_TUNED_ON } from '../../../scripts/absa-data.ts';
import { createRuleAnalyzer } from '../../../src/domain/insights/absa/analyzer.ts';
import { aspectFeatures, sentenceFeatures } from '../../../src/domain/insights/absa/features.ts';
import { ASPECT_IDS, createAnalyzer } from '../../../src/domain/insights/absa/index.ts';
import { createModelAnalyzer } from '../../../src/domain/insights/absa/model.ts';
import type { ModelData } from '../../../src/domain/insights/absa/model.ts';
import { predictSoftmax, seededRandom, trainSoftmax } from '../../../src/domain/insights/absa/logistic.ts';
import type { SparseRow } from '../../../src/domain/insights/absa/logistic.ts';
import { RECIPE, serializeModel, trainModel } from '../../../src/domain/insights/absa/train.ts';
import type { LabelledText } from '../../../src/domain/insights/absa/train.ts';

const rules = createRuleAnalyzer();
const row = (features: number[]): SparseRow => ({ index: Int32Array.from(features), value: Float64Array.from(features.map(() => 1)) });

describe('logistic regression', () => {
  // Feature 0 means class 0, feature 1 class 1, feature 2 class 2; feature 3 is noise on all.
  const rows = [row([0, 3]), row([1, 3]), row([2, 3]), row([0]), row([1]), row([2])];
  const labels = [0, 1, 2, 0, 1, 2];
  const options = { epochs: 30, l2: 1e-4, rate: 0.5, seed: 7 };

  it('learns a separable three-class problem', () => {
    const model = trainSoftmax(rows, labels, 3, 4, options);
    for (const [i, r] of rows.entries()) {
      const p = predictSoftmax(r, model, 3, 4);
      expect(p.indexOf(Math.max(...p))).toBe(labels[i]);
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
  });

  it('gives the same weights for the same seed, and others for another seed', () => {
    const a = trainSoftmax(rows, labels, 3, 4, options);
    expect(trainSoftmax(rows, labels, 3, 4, options)).toEqual(a);
    expect(trainSoftmax(rows, labels, 3, 4, { ...options, seed: 8 }).weights).not.toEqual(a.weights);
  });

  it('seededRandom is a fixed sequence in [0, 1)', () => {
    const r = seededRandom(1);
    const xs = [r(), r(), r()];
    const again = seededRandom(1);
    expect([again(), again(), again()]).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('features', () => {
  const words = (text: string): string[] => sentenceFeatures(rules.traceSentence(text), false).words;

  it('marks the words in a negation scope, up to punctuation or a conjunction', () => {
    const f = words("They didn't clean up, and the crew was polite.");
    expect(f).toContain('n:clean');
    expect(f).not.toContain('n:polit');
    expect(words('They cleaned up nicely.').some((w) => w.startsWith('n:'))).toBe(false);
  });

  it('gives each aspect the words around its own cues, so two aspects of one sentence differ', () => {
    const trace = rules.traceSentence('The crew was polite and friendly the whole week, but the cleanup afterwards was sloppy.');
    const cleanup = aspectFeatures(trace, 'cleanup');
    const professionalism = aspectFeatures(trace, 'professionalism');
    expect(cleanup).toContain('aw:sloppy');
    expect(cleanup).not.toContain('aw:polit');
    expect(professionalism).toContain('aw:polit');
    expect(professionalism).not.toContain('aw:sloppy');
  });

  it('also gives those words paired with the aspect, so a word can mean one thing for one aspect and another for the next', () => {
    const trace = rules.traceSentence('The estimator took a quick look, and the crew was quick too.');
    expect(aspectFeatures(trace, 'estimate')).toContain('ax:estimate quick');
    expect(aspectFeatures(trace, 'estimate')).not.toContain('ax:timeliness quick');
    expect(aspectFeatures(rules.traceSentence('The crew was polite and friendly the whole week.'), 'professionalism')).toContain('ax:professionalism polit');
  });

  it('carries the rules’ labels and cue tiers (stacking) and character n-grams on request', () => {
    const f = sentenceFeatures(rules.traceSentence('The adjuster was great.'));
    expect(f.rules).toContain('r:insurance:positive');
    expect(f.rules).toContain('t:insurance:0');
    expect(f.chars).toContain('c: adj');
    expect(sentenceFeatures(rules.traceSentence('The adjuster was great.'), false).chars).toEqual([]);
  });
});

describe('training', () => {
  it('regenerates the committed model.json byte for byte from data/absa', { timeout: 600_000 }, () => {
    const committed = readFileSync(new URL('../../../src/domain/insights/absa/model.json', import.meta.url), 'utf8');
    expect(serializeModel(trainModel(readAllLabelled(), rules))).toBe(committed);
  });

  it('labels carry a confidence in [0, 1] and a score whose sign agrees with the sentiment', () => {
    const analyzer = createAnalyzer();
    for (const text of ['They left nails all over the driveway.', 'The adjuster approved our claim.', 'They quoted us $9,800.']) {
      const r = analyzer.analyzeSentence(text);
      for (const l of r.labels) {
        expect(l.confidence).toBeGreaterThanOrEqual(0);
        expect(l.confidence).toBeLessThanOrEqual(1);
        if (l.sentiment === 'positive') expect(l.score).toBeGreaterThan(0);
        if (l.sentiment === 'negative') expect(l.score).toBeLessThan(0);
      }
    }
    expect(analyzer.analyzeSentence('They left nails all over the driveway.').labels).toEqual([
      expect.objectContaining({ aspect: 'cleanup', sentiment: 'negative' }),
    ]);
  });
});

describe('the rules’ features where the rules were tuned (Recipe.maskTunedRules)', () => {
  // Every sentence the rules mark as cleanup is gold cleanup: the rules' label alone would decide it.
  const cleanup: LabelledText[] = ['They left nails all over the driveway.', 'Nails everywhere in the yard after they left.', 'They left a mess on the lawn.'].map(
    (text, i) => ({ id: `c${i}`, text, labels: [{ aspect: 'cleanup', sentiment: 'negative' }], overall: 'negative' }),
  );
  const other: LabelledText[] = ['The adjuster was great.', 'They quoted us $9,800.', 'The crew showed up on time.'].map((text, i) => ({
    id: `o${i}`,
    text,
    labels: [],
    overall: 'neutral',
  }));
  const cleanupSlot = ASPECT_IDS.indexOf('cleanup');
  const ruleWeight = (model: ModelData): number => model.weights['r:cleanup:negative']?.[cleanupSlot] ?? 0;

  it('the detectors learn nothing from the rules’ labels of sentences the rules were tuned on', () => {
    const tuned = [...cleanup, ...other].map((e) => ({ ...e, rulesTunedOn: true }));
    expect(ruleWeight(trainModel(tuned, rules))).toBe(0);
    expect(ruleWeight(trainModel(tuned, rules, { ...RECIPE, maskTunedRules: false }))).toBeGreaterThan(0);
    expect(ruleWeight(trainModel([...cleanup, ...other], rules))).toBeGreaterThan(0);
  });

  it('the flag is set on the files the rules were tuned on and on nothing of train.jsonl', () => {
    const all = readAllLabelled();
    expect(new Set(all.filter((s) => s.rulesTunedOn).map((s) => s.group))).toEqual(RULES_TUNED_ON);
    expect(all.filter((s) => /^g[a-f]$/.test(s.group)).some((s) => s.rulesTunedOn)).toBe(false);
  });
});

describe('the likeliest aspect (ModelData.likeliestFloor)', () => {
  // No feature weights: each aspect's probability is its bias alone.
  const logit = (p: number): number => Math.log(p / (1 - p));
  const model = (likeliestFloor: number): ModelData => ({
    format: 1,
    blockScale: { words: 1, chars: 0, rules: 1, aspect: 1 },
    thresholds: ASPECT_IDS.map(() => 0.3),
    likeliestFloor,
    bias: [...ASPECT_IDS.map((a) => logit(a === 'workmanship' ? 0.25 : a === 'timeliness' ? 0.22 : 0.01)), 0, 0, 0, 0, 0, 0],
    weights: {},
  });
  const aspects = (m: ModelData): string[] => createModelAnalyzer(rules, m).analyzeSentence('Something happened.').labels.map((l) => l.aspect);

  it('is labelled down to the floor when no aspect reaches its threshold; the others are not', () => {
    expect(aspects(model(0.2))).toEqual(['workmanship']);
    expect(aspects(model(0.3))).toEqual([]);
  });
});
