/**
 * Measuring a training recipe honestly: train on some groups of labelled sentences (writers) and
 * score on a group never trained on, fold by fold (cross-validation), or once on a frozen group.
 * Pure: the callers load the data.
 */
import type { RuleAnalyzer } from './analyzer.ts';
import { evaluate } from './evaluate.ts';
import type { EvalReport } from './evaluate.ts';
import { createModelAnalyzer } from './model.ts';
import { trainModel } from './train.ts';
import type { LabelledText, Recipe } from './train.ts';

export interface Grouped extends LabelledText {
  readonly group: string;
}

export interface Figures {
  readonly sentences: number;
  readonly tripleF1: number;
  readonly aspectF1: number;
  readonly overallAccuracy: number;
}

export function figures(report: EvalReport): Figures {
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  return { sentences: report.sentences, tripleF1: r3(report.triples.f1), aspectF1: r3(report.aspects.f1), overallAccuracy: r3(report.overallAccuracy) };
}

/** Train on `train`, score on `test`. */
export function scoreHeldOut(train: readonly LabelledText[], test: readonly LabelledText[], rules: RuleAnalyzer, recipe?: Recipe): EvalReport {
  const analyzer = createModelAnalyzer(rules, trainModel(train, rules, recipe));
  return evaluate(test, test.map((t) => ({ id: t.id, ...analyzer.analyzeSentence(t.text) })));
}

/**
 * Leave-one-group-out over `folds`: each of those groups is scored by a model trained on every
 * other sentence of `examples`. The mean is the unweighted mean of the folds' figures.
 */
export function crossValidate(
  examples: readonly Grouped[],
  folds: readonly string[],
  rules: RuleAnalyzer,
  recipe?: Recipe,
): { readonly folds: readonly (Figures & { readonly group: string })[]; readonly mean: Omit<Figures, 'sentences'> } {
  const results = folds.map((group) => ({
    group,
    ...figures(scoreHeldOut(examples.filter((e) => e.group !== group), examples.filter((e) => e.group === group), rules, recipe)),
  }));
  const mean = (key: 'tripleF1' | 'aspectF1' | 'overallAccuracy'): number =>
    Math.round((results.reduce((s, r) => s + r[key], 0) / Math.max(results.length, 1)) * 1000) / 1000;
  return { folds: results, mean: { tripleF1: mean('tripleF1'), aspectF1: mean('aspectF1'), overallAccuracy: mean('overallAccuracy') } };
}
