/**
 * Evaluation maths for the ABSA analyzer: micro-averaged precision, recall and F1 over
 * (sentence, aspect, sentiment) triples and over (sentence, aspect) pairs, plus the accuracy
 * of the sentence-level overall sentiment. Pure: no I/O, no timing.
 */
import type { AspectId, Sentiment } from '../../schemas/aspects.ts';

export interface LabelledSentence {
  readonly id: string | number;
  readonly labels: readonly { readonly aspect: AspectId | string; readonly sentiment: Sentiment | string }[];
  readonly overall: Sentiment | string;
}

export type PredictedSentence = LabelledSentence;

export interface PRF {
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

export interface EvalReport {
  readonly sentences: number;
  readonly triples: PRF;
  readonly aspects: PRF;
  readonly overallAccuracy: number;
}

/**
 * Precision/recall/F1 of a predicted set against a gold set (items compared by value).
 * Conventions: precision is 1 when nothing was predicted, recall is 1 when nothing was
 * expected, and F1 is 0 when precision + recall is 0.
 */
export function precisionRecallF1(gold: Iterable<string>, predicted: Iterable<string>): PRF {
  const g = new Set(gold);
  const p = new Set(predicted);
  let tp = 0;
  for (const x of p) if (g.has(x)) tp += 1;
  return prfFromCounts(tp, p.size - tp, g.size - tp);
}

function prfFromCounts(tp: number, fp: number, fn: number): PRF {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

function keyOf(id: string | number, ...parts: string[]): string {
  return JSON.stringify([String(id), ...parts]);
}

/**
 * Score predictions against gold labels. Sentences are paired by position (`gold[i]` with
 * `predicted[i]`); the i-th pair's keys use gold's id plus the index, so duplicate ids are safe.
 * Throws if the two arrays differ in length.
 */
export function evaluate(gold: readonly LabelledSentence[], predicted: readonly PredictedSentence[]): EvalReport {
  if (gold.length !== predicted.length) {
    throw new Error(`evaluate: ${gold.length} gold sentences but ${predicted.length} predictions`);
  }
  const goldTriples: string[] = [];
  const predTriples: string[] = [];
  const goldPairs: string[] = [];
  const predPairs: string[] = [];
  let correctOverall = 0;
  for (let i = 0; i < gold.length; i += 1) {
    const g = gold[i];
    const p = predicted[i];
    if (g === undefined || p === undefined) continue;
    const id = `${i}:${String(g.id)}`;
    for (const l of g.labels) {
      goldTriples.push(keyOf(id, l.aspect, l.sentiment));
      goldPairs.push(keyOf(id, l.aspect));
    }
    for (const l of p.labels) {
      predTriples.push(keyOf(id, l.aspect, l.sentiment));
      predPairs.push(keyOf(id, l.aspect));
    }
    if (g.overall === p.overall) correctOverall += 1;
  }
  return {
    sentences: gold.length,
    triples: precisionRecallF1(goldTriples, predTriples),
    aspects: precisionRecallF1(goldPairs, predPairs),
    overallAccuracy: gold.length === 0 ? 1 : correctOverall / gold.length,
  };
}
