import type { ReviewsDataset } from './schemas/datasets.ts';
import type { Site } from './site.ts';

export function reviewsDataset(site: Site): ReviewsDataset {
  return {
    business: site.business,
    aggregate_rating: site.aggregate,
    updated: site.updated,
    reviews: site.reviews,
  };
}

/** The bytes of a JSON document as published: compact, with a final newline. */
export function serializeJson(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** What /reviews.json says before its reviews: everything but them, in one line. */
export type ReviewsDatasetHead = Omit<ReviewsDataset, 'reviews'>;

const REVIEWS_OPEN = '"reviews":[';
const REVIEWS_CLOSE = ']}';

/**
 * /reviews.json as published: compact JSON with each review on a line of its own,
 * between a first line that holds everything else and a last line that closes the
 * array. A newline byte occurs nowhere inside a line (JSON escapes it in strings),
 * so a reader finds each review's exact bytes by splitting lines, without parsing
 * the whole document: the server loads its catalog a review at a time
 * (src/server/builds/catalog-loader.ts), and a diff of two builds shows the reviews
 * that changed.
 */
export function serializeReviewsDataset({ reviews, ...head }: ReviewsDataset): string {
  const first = `${JSON.stringify({ ...head, reviews: [] }).slice(0, -REVIEWS_CLOSE.length)}\n`;
  return `${first}${reviews.map((review) => JSON.stringify(review)).join(',\n')}${reviews.length ? '\n' : ''}${REVIEWS_CLOSE}\n`;
}

/** The first line of /reviews.json read back; undefined if it is not one (see serializeReviewsDataset). */
export function parseReviewsDatasetHead(line: string): ReviewsDatasetHead | undefined {
  if (!line.endsWith(REVIEWS_OPEN)) return undefined;
  try {
    const { reviews, ...head } = JSON.parse(`${line}${REVIEWS_CLOSE}`) as ReviewsDataset;
    return reviews.length === 0 ? head : undefined;
  } catch {
    return undefined;
  }
}

/** A review line of /reviews.json without its separator: each but the last ends with a comma. */
export function reviewLineJson(line: string): string {
  return line.endsWith(',') ? line.slice(0, -1) : line;
}

/** Whether a line is the one that closes /reviews.json. */
export function isReviewsDatasetEnd(line: string): boolean {
  return line === REVIEWS_CLOSE;
}
