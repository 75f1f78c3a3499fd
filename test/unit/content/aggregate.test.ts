import { describe, expect, it } from 'vitest';
import { reviewsDataset } from '../../../src/domain/datasets.ts';
import { siteFrom } from '../../support/site.ts';

describe('reviews dataset', () => {
  it('aggregates verified reviews only and dates its update from reviews and responses', () => {
    const site = siteFrom([
      { id: 'a', date: '2024-01-01', rating: 5 },
      { id: 'b', date: '2024-02-01', rating: 4, response: { date: '2024-06-01', text: 'Thanks' } },
      { id: 'c', date: '2024-03-01', rating: 1 },
      { id: 'x', date: '2025-01-01', rating: 1, verified: false },
    ]);
    const dataset = reviewsDataset(site);
    expect(dataset.aggregate_rating).toEqual({
      rating_value: 3.33,
      review_count: 3,
      best_rating: 5,
      worst_rating: 1,
      distribution: { '1': 1, '2': 0, '3': 0, '4': 1, '5': 1 },
    });
    expect(dataset.updated).toBe('2024-06-01');
    expect(dataset.reviews.map((r) => r.id)).toEqual(['c', 'b', 'a']);
  });

  it('orders reviews of the same day by id', () => {
    const site = siteFrom([{ id: 'b', date: '2024-01-01' }, { id: 'a', date: '2024-01-01' }, { id: 'c', date: '2023-01-01' }]);
    expect(site.reviews.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('copes with a business that has no reviews yet', () => {
    const dataset = reviewsDataset(siteFrom([]));
    expect(dataset).toMatchObject({ updated: null, reviews: [], aggregate_rating: { rating_value: null, review_count: 0 } });
  });
});
