/**
 * Problems that predate the job, read at the level of a whole review (docs/insights.md). A
 * well-rated review usually opens with the problem the customer called about ("Drip by the
 * fireplace started during the first cold front."). One sentence at a time that is a leak like any
 * later one, so the analyzer reads it as negative workmanship; the review around it says otherwise.
 * In a review rated at least OPENING_PROBLEM_MIN_RATING, the negative workmanship and materials
 * labels of the sentences before the first sentence with a positive label are that problem, not
 * this business's work, and are dropped. A lower-rated review keeps them: there the opening is as
 * often the complaint itself ("Leaked within a week."); so does a review that praises nothing.
 * Pure.
 */
import type { SentenceResult } from './absa/results.ts';
import type { AspectId } from '../schemas/aspects.ts';

export const OPENING_PROBLEM_MIN_RATING = 4;

/** The aspects a problem the customer called about is read as. */
export const OPENING_PROBLEM_ASPECTS: ReadonlySet<AspectId> = new Set<AspectId>(['workmanship', 'materials']);

export function withoutOpeningProblem(sentences: readonly SentenceResult[], rating: number): readonly SentenceResult[] {
  if (rating < OPENING_PROBLEM_MIN_RATING) return sentences;
  // With no praise anywhere the review's complaint is its own, whatever its rating.
  const firstPositive = sentences.findIndex((s) => s.labels.some((l) => l.sentiment === 'positive'));
  if (firstPositive < 0) return sentences;
  return sentences.map((s, i) =>
    i < firstPositive ? { ...s, labels: s.labels.filter((l) => !(l.sentiment === 'negative' && OPENING_PROBLEM_ASPECTS.has(l.aspect))) } : s,
  );
}
