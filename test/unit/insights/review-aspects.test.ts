import { describe, expect, it } from 'vitest';
import { analyzeReviewAspects } from '../../../src/domain/insights/review-aspects.ts';

describe('review aspects as the build computes them', () => {
  it('labels each sentence with its aspects and keeps the sentence as the excerpt', () => {
    const analyze = analyzeReviewAspects(null);
    expect(analyze('Great roof, but they left nails all over the driveway. Highly recommend!')).toEqual([
      { aspect: 'workmanship', sentiment: 'positive', score: expect.any(Number), confidence: expect.any(Number), excerpt: 'Great roof, but they left nails all over the driveway.' },
      { aspect: 'cleanup', sentiment: 'negative', score: expect.any(Number), confidence: expect.any(Number), excerpt: 'Great roof, but they left nails all over the driveway.' },
    ]);
  });

  it("uses the business's vocabulary extension", () => {
    const text = 'The confetti cannon was a nice touch.';
    expect(analyzeReviewAspects(null)(text).some((a) => a.aspect === 'professionalism')).toBe(false);
    const extended = analyzeReviewAspects({ aspects: { professionalism: { cues: ['confetti cannon'] } } });
    expect(extended(text)).toEqual([expect.objectContaining({ aspect: 'professionalism', sentiment: 'positive' })]);
  });
});
