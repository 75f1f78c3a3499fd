import { reviewUpdated } from '../aggregate.ts';
import type { Review } from '../schemas/review.ts';

/** Both feeds carry the same newest reviews. */
export const FEED_SIZE = 50;

export function feedReviews(reviews: readonly Review[]): Review[] {
  return reviews.slice(0, FEED_SIZE);
}

/** A review has no title of its own more often than not; feeds need one. */
export function reviewHeadline(review: Review): string {
  return review.title ?? `${review.rating}-star review by ${review.author.name}`;
}

export function reviewAnchorUrl(homeUrl: string, review: Review): string {
  return `${homeUrl}#review-${review.id}`;
}

export function entryUpdated(review: Review): string {
  return reviewUpdated(review);
}
