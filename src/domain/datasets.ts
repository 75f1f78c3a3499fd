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
/** The last line of /reviews.json. */
export const REVIEWS_DATASET_END = ']}';
/** What ends each review's line but the last, before its newline. */
export const REVIEW_LINE_END = ',';

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
  return [...reviewsDatasetPieces(head, reviews.map((review) => JSON.stringify(review)))].join('');
}

/**
 * serializeReviewsDataset's output in pieces, in order: its lines around the reviews
 * and each review as given (its JSON, in whatever form the writer holds it), for a
 * writer that need not hold the whole document (the build's, src/build/reviews-document.ts).
 */
export function* reviewsDatasetPieces<R>(head: ReviewsDatasetHead, reviews: readonly R[]): Generator<string | R> {
  yield `${JSON.stringify({ ...head, reviews: [] }).slice(0, -REVIEWS_DATASET_END.length)}\n`;
  const last = reviews.length - 1;
  for (let i = 0; i <= last; i++) {
    yield reviews[i] as R;
    yield i < last ? `${REVIEW_LINE_END}\n` : '\n';
  }
  yield `${REVIEWS_DATASET_END}\n`;
}

/** The first line of /reviews.json read back; undefined if it is not one (see serializeReviewsDataset). */
export function parseReviewsDatasetHead(line: string): ReviewsDatasetHead | undefined {
  if (!line.endsWith(REVIEWS_OPEN)) return undefined;
  try {
    const { reviews, ...head } = JSON.parse(`${line}${REVIEWS_DATASET_END}`) as ReviewsDataset;
    return reviews.length === 0 ? head : undefined;
  } catch {
    return undefined;
  }
}
