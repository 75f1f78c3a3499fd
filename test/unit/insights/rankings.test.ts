import { describe, expect, it } from 'vitest';
import { MIN_ASPECT_MENTIONS, MIN_ENTITY_REVIEWS, rankAspects, rankEntities, wilsonLowerBound } from '../../../src/domain/insights/rankings.ts';
import { pickHighlights, QUOTE_MIN_CONFIDENCE, type Mention } from '../../../src/domain/insights/quotes.ts';
import type { AspectInsight } from '../../../src/domain/schemas/insights.ts';
import type { Review, ReviewAspect } from '../../../src/domain/schemas/review.ts';

describe('Wilson lower bound', () => {
  it('matches the root of the score-interval quadratic (values computed independently)', () => {
    // Lower root of (n + z²)p² − (2n·p̂ + z²)p + n·p̂² = 0, z = 1.96, solved outside this code.
    for (const [k, n, expected] of [
      [18, 19, 0.7536],
      [6, 6, 0.6097],
      [3, 5, 0.2307],
      [8, 16, 0.28],
      [11, 12, 0.6461],
      [1, 1, 0.2065],
      [50, 100, 0.4038],
    ] as const) {
      expect(wilsonLowerBound(k, n), `${k}/${n}`).toBeCloseTo(expected, 4);
    }
  });

  it('is 0 with nothing seen or nothing positive, and grows with evidence at the same share', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(0, 5)).toBe(0);
    expect(wilsonLowerBound(9, 10)).toBeLessThan(wilsonLowerBound(90, 100));
    expect(wilsonLowerBound(90, 100)).toBeLessThan(0.9);
  });
});

function aspect(name: AspectInsight['aspect'], positive: number, negative: number, neutral = 0): AspectInsight {
  return { aspect: name, mentions: positive + negative + neutral, positive, negative, neutral, score: 0, trend: [], highlights: [] };
}

describe('aspect rankings', () => {
  // By raw share cleanup (6/6) beats timeliness (18/19) and price (3/5 negative) beats communication (8/16 negative).
  const aspects = [
    aspect('cleanup', 6, 0),
    aspect('timeliness', 18, 1),
    aspect('price', 2, 3),
    aspect('communication', 8, 8),
    aspect('warranty', MIN_ASPECT_MENTIONS - 1, 0),
    aspect('materials', 0, 0, 7),
  ];

  it('orders the praised by the lower bound of the positive share, not the raw share', () => {
    expect(rankAspects(aspects, 'positive').map((r) => [r.aspect, r.count, r.mentions, r.share, r.lower_bound])).toEqual([
      ['timeliness', 18, 19, 0.947, 0.754],
      ['cleanup', 6, 6, 1, 0.61],
      ['communication', 8, 16, 0.5, 0.28],
      ['price', 2, 5, 0.4, 0.118],
    ]);
  });

  it('orders the criticised by the lower bound of the negative share', () => {
    expect(rankAspects(aspects, 'negative').map((r) => r.aspect)).toEqual(['communication', 'price', 'timeliness']);
  });

  it(`leaves out aspects under ${MIN_ASPECT_MENTIONS} mentions and those with none of the sentiment`, () => {
    const ranked = [...rankAspects(aspects, 'positive'), ...rankAspects(aspects, 'negative')].map((r) => r.aspect);
    expect(ranked).not.toContain('warranty');
    expect(ranked).not.toContain('materials');
    expect(rankAspects([aspect('warranty', MIN_ASPECT_MENTIONS, 0)], 'positive').map((r) => r.aspect)).toEqual(['warranty']);
  });
});

function reviews(id: string, ratings: number[]): Review[] {
  return ratings.map((rating, i) => ({ id: `${id}-${i}`, rating }) as Review);
}

describe('technician and service rankings', () => {
  const ranked = rankEntities([
    { id: 'ann', name: 'Ann', reviews: reviews('ann', [5, 5, 5]) },
    { id: 'bob', name: 'Bob', reviews: reviews('bob', [5, 5, 5, 5, 5, 4, 5, 5, 5, 5, 4, 1]) },
    { id: 'cat', name: 'Cat', reviews: reviews('cat', Array(MIN_ENTITY_REVIEWS - 1).fill(5)) },
  ]);

  it('ranks by the lower bound of the share of 4- and 5-star reviews: 11 of 12 above 3 of 3', () => {
    expect(ranked.map((r) => [r.id, r.happy_reviews, r.reviews, r.share, r.lower_bound, r.average_rating])).toEqual([
      ['bob', 11, 12, 0.917, 0.646, 4.5],
      ['ann', 3, 3, 1, 0.438, 5],
    ]);
    expect(ranked[0]?.review_ids).toEqual(['bob-0', 'bob-1', 'bob-2', 'bob-3', 'bob-4']);
  });

  it(`leaves out those named in fewer than ${MIN_ENTITY_REVIEWS} reviews`, () => {
    expect(ranked.map((r) => r.id)).not.toContain('cat');
  });
});

describe('quotes', () => {
  const review = (id: string) => ({ id }) as Review;
  const label = (score: number, confidence: number, excerpt: string | null): ReviewAspect => ({
    aspect: 'workmanship',
    sentiment: score > 0 ? 'positive' : 'negative',
    score,
    confidence,
    excerpt,
    source: 'analyzer',
  });

  it(`never quotes a label with a confidence under ${QUOTE_MIN_CONFIDENCE}, nor one without a sentence`, () => {
    const mentions: Mention[] = [
      { review: review('unsure-strong'), found: label(0.95, QUOTE_MIN_CONFIDENCE - 0.01, 'A sentence it is unsure of.') },
      { review: review('owner-no-excerpt'), found: { ...label(1, 1, null), source: 'owner' } },
      { review: review('sure'), found: label(0.8, 0.8, 'A sure sentence.') },
      { review: review('unsure-negative'), found: label(-0.9, 0.3, 'An unsure complaint.') },
      { review: review('at-margin'), found: label(-0.7, QUOTE_MIN_CONFIDENCE, 'A complaint at the margin.') },
    ];
    expect(pickHighlights(mentions)).toEqual([
      { review_id: 'sure', excerpt: 'A sure sentence.', sentiment: 'positive' },
      { review_id: 'at-margin', excerpt: 'A complaint at the margin.', sentiment: 'negative' },
    ]);
  });
});
