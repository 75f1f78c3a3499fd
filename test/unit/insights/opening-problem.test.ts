import { describe, expect, it } from 'vitest';
import type { SentenceResult } from '../../../src/domain/insights/absa/index.ts';
import { withoutOpeningProblem } from '../../../src/domain/insights/opening-problem.ts';
import { analyzeReviewAspects } from '../../../src/domain/insights/review-aspects.ts';

// Issue 14 item 3 across a review: the problem a well-rated review opens with is the reason the
// customer called, not this business's work.
const sentence = (text: string, labels: [string, string][]): SentenceResult => ({
  text,
  labels: labels.map(([aspect, sentiment]) => ({ aspect, sentiment, score: 0, confidence: 1 }) as SentenceResult['labels'][number]),
  overall: 'neutral',
  score: 0,
});
const labelsOf = (sentences: readonly SentenceResult[]): string[][] => sentences.map((s) => s.labels.map((l) => `${l.aspect}:${l.sentiment}`));

describe('the opening problem of a well-rated review', () => {
  const review = [
    sentence('Drip by the fireplace started during the first cold front.', [['workmanship', 'negative']]),
    sentence('The old shingles were curling and nobody returned our calls.', [['materials', 'negative'], ['communication', 'negative']]),
    sentence('They fixed the flashing the same day.', [['workmanship', 'positive']]),
    sentence('One downspout still dumps water on the patio.', [['workmanship', 'negative']]),
  ];

  it('drops negative workmanship and materials before the first positive label, at 4 stars and up', () => {
    for (const rating of [4, 5]) {
      expect(labelsOf(withoutOpeningProblem(review, rating))).toEqual([
        [],
        ['communication:negative'],
        ['workmanship:positive'],
        ['workmanship:negative'],
      ]);
    }
  });

  it('keeps everything in a review rated under 4, where the opening is as often the complaint itself', () => {
    for (const rating of [1, 2, 3]) expect(withoutOpeningProblem(review, rating)).toEqual(review);
  });

  it('keeps everything in a review that praises nothing, whatever its rating: the complaint is its own', () => {
    const complaint = [review[0] as SentenceResult, review[1] as SentenceResult];
    expect(withoutOpeningProblem(complaint, 5)).toEqual(complaint);
  });

  it('is what the build publishes: the issue’s own example on a five-star review', () => {
    const analyze = analyzeReviewAspects(null);
    const text = 'Drip by the fireplace started during the first cold front. They found a cracked chimney flashing and fixed it the same day. Great crew.';
    const problem = (aspects: { aspect: string; sentiment: string; excerpt: string }[]) =>
      aspects.filter((a) => a.sentiment === 'negative' && a.excerpt.startsWith('Drip by the fireplace'));
    expect(problem(analyze(text, 2)).length).toBeGreaterThan(0); // read alone, it is a leak
    expect(problem(analyze(text, 5))).toEqual([]);
    expect(problem(analyze(text))).toEqual(problem(analyze(text, 2)));
  });
});
