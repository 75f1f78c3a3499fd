import { describe, expect, it } from 'vitest';
import { confidentQuotes } from '../../../src/domain/insights/confident-quotes.ts';
import { QUOTE_MIN_CONFIDENCE } from '../../../src/domain/insights/quotes.ts';
import type { Review, ReviewAspect } from '../../../src/domain/schemas/review.ts';

function label(aspect: ReviewAspect['aspect'], confidence: number, excerpt: string | null, sentiment: ReviewAspect['sentiment'] = 'positive', score = 0.9): ReviewAspect {
  return { aspect, sentiment, score: sentiment === 'negative' ? -score : score, confidence, excerpt, source: 'analyzer' };
}

function review(id: string, aspects: ReviewAspect[], rating = 5): Review {
  return {
    id,
    rating,
    date: '2024-01-01',
    title: null,
    text: aspects.map((a) => a.excerpt ?? '').join(' '),
    author: { name: `Author ${id}` },
    verified: true,
    verification: 'invoice',
    source: null,
    response: null,
    services: [],
    technicians: [],
    service_area: null,
    aspects,
  } as unknown as Review;
}

describe('confidentQuotes', () => {
  it('takes the surest sentences first, whatever their sentiment, and says where each comes from', () => {
    const reviews = [
      review('new', [label('price', 0.8, 'Fair price.')]),
      review('mid', [label('timeliness', 0.97, 'Started five weeks late.', 'negative')], 2),
      review('old', [label('cleanup', 0.99, 'Spotless yard.')]),
    ];
    expect(confidentQuotes(reviews, 2)).toEqual([
      { review_id: 'old', author: 'Author old', rating: 5, aspect: 'cleanup', sentiment: 'positive', excerpt: 'Spotless yard.', confidence: 0.99 },
      { review_id: 'mid', author: 'Author mid', rating: 2, aspect: 'timeliness', sentiment: 'negative', excerpt: 'Started five weeks late.', confidence: 0.97 },
    ]);
  });

  it('never quotes an unsure sentence or a label without a sentence', () => {
    const reviews = [review('a', [label('price', QUOTE_MIN_CONFIDENCE - 0.01, 'Maybe fair.'), label('cleanup', 1, null)]), review('b', [label('warranty', QUOTE_MIN_CONFIDENCE, 'Ten years.')])];
    expect(confidentQuotes(reviews, 5).map((q) => q.excerpt)).toEqual(['Ten years.']);
  });

  it('quotes each review and each aspect once, so that a few quotes cover more', () => {
    const reviews = [
      review('a', [label('price', 0.99, 'Fair price.'), label('cleanup', 0.98, 'Clean.')]),
      review('b', [label('price', 0.97, 'Cheap.'), label('communication', 0.9, 'Called back.')]),
      review('c', [label('cleanup', 0.95, 'Tidy crew.')]),
    ];
    expect(confidentQuotes(reviews, 3).map((q) => [q.review_id, q.aspect])).toEqual([
      ['a', 'price'],
      ['c', 'cleanup'],
      ['b', 'communication'],
    ]);
  });

  it('breaks ties by the stronger sentence, then the newer review', () => {
    const reviews = [review('newer', [label('price', 0.9, 'Fair.', 'positive', 0.5)]), review('older', [label('cleanup', 0.9, 'Clean.', 'positive', 0.5)]), review('strong', [label('warranty', 0.9, 'Great warranty.', 'positive', 0.99)])];
    expect(confidentQuotes(reviews, 3).map((q) => q.review_id)).toEqual(['strong', 'newer', 'older']);
  });

  it('gives nothing for no reviews or a count of 0', () => {
    expect(confidentQuotes([], 3)).toEqual([]);
    expect(confidentQuotes([review('a', [label('price', 1, 'Fair.')])], 0)).toEqual([]);
  });
});
