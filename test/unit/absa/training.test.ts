import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAllLabelled } from '../../../scripts/absa-data.ts';
import { createRuleAnalyzer } from '../../../src/domain/insights/absa/analyzer.ts';
import { aspectFeatures, sentenceFeatures } from '../../../src/domain/insights/absa/features.ts';
import { createAnalyzer } from '../../../src/domain/insights/absa/index.ts';
import { predictSoftmax, seededRandom, trainSoftmax } from '../../../src/domain/insights/absa/logistic.ts';
import type { SparseRow } from '../../../src/domain/insights/absa/logistic.ts';
import { serializeModel, trainModel } from '../../../src/domain/insights/absa/train.ts';

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

  it('carries the rules’ labels and cue tiers (stacking) and character n-grams on request', () => {
    const f = sentenceFeatures(rules.traceSentence('The adjuster was great.'));
    expect(f.rules).toContain('r:insurance:positive');
    expect(f.rules).toContain('t:insurance:0');
    expect(f.chars).toContain('c: adj');
    expect(sentenceFeatures(rules.traceSentence('The adjuster was great.'), false).chars).toEqual([]);
  });
});

describe('training', () => {
  it('regenerates the committed model.json byte for byte from data/absa', { timeout: 120_000 }, () => {
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
