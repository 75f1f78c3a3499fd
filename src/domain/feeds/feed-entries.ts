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

/** The Atom entry's permanent id: a URI naming the review, no longer a link (the review's page is `url`). */
export function reviewEntryId(homeUrl: string, review: Review): string {
  return `${homeUrl}#review-${review.id}`;
}

export function entryUpdated(review: Review): string {
  return reviewUpdated(review);
}

/** The language of the feeds and pages: the business's, else English. */
export function businessLanguage(business: { name: string; language?: unknown }): string {
  return typeof business.language === 'string' ? business.language : 'en';
}

/** The review as plain text, with the owner's response after it (the response also moves the entry's update date). */
export function reviewPlainText(review: Review, businessName: string): string {
  if (!review.response) return review.text;
  return `${review.text}\n\nResponse from ${businessName} (${review.response.date}):\n${review.response.text}`;
}
