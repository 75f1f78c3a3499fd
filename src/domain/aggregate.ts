import type { Review } from './schemas/review.ts';
import { maxDate } from './dates.ts';

export interface AggregateRating {
  rating_value: number | null;
  review_count: number;
  best_rating: 5;
  worst_rating: 1;
  distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
}

export function aggregateRating(reviews: readonly Pick<Review, 'rating'>[]): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  for (const review of reviews) {
    distribution[String(review.rating) as keyof typeof distribution] += 1;
    sum += review.rating;
  }
  return {
    rating_value: reviews.length ? Math.round((sum / reviews.length) * 100) / 100 : null,
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}

/** The newest date among the reviews and their owner responses, or null with no reviews. */
/** What a review is dated by: its date, and its response's. */
type Dated = { date: string; response: { date: string } | null };

export function lastUpdated(reviews: readonly Dated[]): string | null {
  let newest: string | null = null;
  for (const review of reviews) newest = maxDate(newest, reviewUpdated(review));
  return newest;
}

/** A review changes when it is written and again when the owner answers it. */
export function reviewUpdated(review: Dated): string {
  return review.response && review.response.date > review.date ? review.response.date : review.date;
}
