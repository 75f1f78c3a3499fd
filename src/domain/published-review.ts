/**
 * A published review as a build keeps it from one build to the next
 * (src/build/review-cache.ts): its record as JSON text, which the build copies into
 * /reviews.json without parsing it again, and the few fields the site is ordered,
 * counted and dated by.
 */
import type { ReviewRecord } from './schemas/review.ts';

export interface PublishedReview {
  id: string;
  date: string;
  rating: number;
  /** The owner's response, by its date only. */
  response: { date: string } | null;
  /** The record's JSON without its id: `{"rating":…}`. */
  json: string;
}

export function publishedReview({ id, ...rest }: ReviewRecord): PublishedReview {
  return { id, date: rest.date, rating: rest.rating, response: rest.response && { date: rest.response.date }, json: JSON.stringify(rest) };
}

/**
 * The start of the review's JSON in /reviews.json: its id and its page's address, before
 * the rest of its record (its `json` but the opening brace, as text or as its UTF-8
 * bytes). These are the bytes JSON.stringify gives the site's review object (site.ts),
 * whose keys come in that order.
 */
export function publishedReviewOpening({ id, json }: { id: string; json: string | Uint8Array }, url: string): string {
  // `{}` is two characters and two bytes: a record with nothing besides its id.
  return `{"id":${JSON.stringify(id)},"url":${JSON.stringify(url)}${json.length === 2 ? '' : ','}`;
}
