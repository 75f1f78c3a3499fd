import { describe, expect, it } from 'vitest';
import { evaluate, precisionRecallF1 } from '../../../src/domain/insights/absa/index.ts';
import type { LabelledSentence } from '../../../src/domain/insights/absa/index.ts';

describe('precisionRecallF1', () => {
  it('computes micro precision, recall and F1 from sets', () => {
    const r = precisionRecallF1(['a', 'b', 'c', 'd'], ['a', 'b', 'x']);
    expect(r.truePositives).toBe(2);
    expect(r.falsePositives).toBe(1);
    expect(r.falseNegatives).toBe(2);
    expect(r.precision).toBeCloseTo(2 / 3, 12);
    expect(r.recall).toBeCloseTo(0.5, 12);
    expect(r.f1).toBeCloseTo((2 * (2 / 3) * 0.5) / (2 / 3 + 0.5), 12);
  });
  it('counts duplicates once', () => {
    expect(precisionRecallF1(['a', 'a'], ['a', 'a', 'a'])).toMatchObject({ truePositives: 1, precision: 1, recall: 1, f1: 1 });
  });
  it('handles empty sets: nothing predicted means precision 1, nothing expected means recall 1', () => {
    expect(precisionRecallF1([], [])).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    expect(precisionRecallF1(['a'], [])).toMatchObject({ precision: 1, recall: 0, f1: 0 });
    expect(precisionRecallF1([], ['a'])).toMatchObject({ precision: 0, recall: 1, f1: 0 });
    expect(precisionRecallF1(['a'], ['b'])).toMatchObject({ precision: 0, recall: 0, f1: 0 });
  });
});

describe('evaluate', () => {
  const gold: LabelledSentence[] = [
    { id: 1, labels: [{ aspect: 'cleanup', sentiment: 'negative' }, { aspect: 'workmanship', sentiment: 'positive' }], overall: 'negative' },
    { id: 2, labels: [{ aspect: 'price', sentiment: 'positive' }], overall: 'positive' },
    { id: 3, labels: [], overall: 'neutral' },
  ];
  const predicted: LabelledSentence[] = [
    // one right triple, one right aspect with the wrong sentiment
    { id: 1, labels: [{ aspect: 'cleanup', sentiment: 'negative' }, { aspect: 'workmanship', sentiment: 'neutral' }], overall: 'negative' },
    // right
    { id: 2, labels: [{ aspect: 'price', sentiment: 'positive' }], overall: 'positive' },
    // a spurious label
    { id: 3, labels: [{ aspect: 'estimate', sentiment: 'neutral' }], overall: 'positive' },
  ];

  it('scores triples and (sentence, aspect) pairs separately', () => {
    const r = evaluate(gold, predicted);
    expect(r.sentences).toBe(3);
    expect(r.triples).toMatchObject({ truePositives: 2, falsePositives: 2, falseNegatives: 1 });
    expect(r.triples.precision).toBeCloseTo(0.5, 12);
    expect(r.triples.recall).toBeCloseTo(2 / 3, 12);
    expect(r.triples.f1).toBeCloseTo(4 / 7, 12);
    expect(r.aspects).toMatchObject({ truePositives: 3, falsePositives: 1, falseNegatives: 0 });
    expect(r.aspects.precision).toBeCloseTo(0.75, 12);
    expect(r.aspects.recall).toBe(1);
    expect(r.aspects.f1).toBeCloseTo(6 / 7, 12);
    expect(r.overallAccuracy).toBeCloseTo(2 / 3, 12);
  });
  it('keeps sentences apart even when they share an id or labels', () => {
    const g: LabelledSentence[] = [
      { id: 'x', labels: [{ aspect: 'price', sentiment: 'positive' }], overall: 'positive' },
      { id: 'x', labels: [], overall: 'neutral' },
    ];
    const p: LabelledSentence[] = [
      { id: 'x', labels: [], overall: 'neutral' },
      { id: 'x', labels: [{ aspect: 'price', sentiment: 'positive' }], overall: 'positive' },
    ];
    const r = evaluate(g, p);
    expect(r.triples).toMatchObject({ truePositives: 0, falsePositives: 1, falseNegatives: 1, f1: 0 });
    expect(r.overallAccuracy).toBe(0);
  });
  it('is perfect on identical input and rejects mismatched lengths', () => {
    const r = evaluate(gold, gold);
    expect(r.triples.f1).toBe(1);
    expect(r.aspects.f1).toBe(1);
    expect(r.overallAccuracy).toBe(1);
    expect(() => evaluate(gold, gold.slice(1))).toThrow(/3 gold sentences but 2 predictions/);
  });
  it('returns defined values for no sentences', () => {
    expect(evaluate([], [])).toMatchObject({ sentences: 0, overallAccuracy: 1, triples: { f1: 1 }, aspects: { f1: 1 } });
  });
});
