/**
 * /reviews.json, the build's largest document, is written by the content step
 * (prepare-content.ts) from the records it holds, not by Astro: it is then compressed
 * while Astro renders, and Astro reads the site back from it (prepared-site.ts) instead
 * of the cache of prepared reviews. Both sides go through the domain's serialisation.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { parseReviewsDatasetHead, REVIEW_LINE_END, REVIEWS_DATASET_END, reviewsDatasetLines, type ReviewsDatasetHead } from '../domain/datasets.ts';
import type { Review } from '../domain/schemas/review.ts';
import type { ReviewsDataset } from '../domain/schemas/datasets.ts';

/** Lines are gathered up to this many characters before each write. */
const WRITE_CHARS = 1 << 20;

/** Writes /reviews.json, given its head and its reviews' JSON, a megabyte at a time: the document is never one string. */
export function writeReviewsDocument(file: string, head: ReviewsDatasetHead, reviews: readonly string[]): void {
  const fd = openSync(file, 'w');
  try {
    let pending: string[] = [];
    let chars = 0;
    for (const line of reviewsDatasetLines(head, reviews)) {
      pending.push(line);
      chars += line.length;
      if (chars < WRITE_CHARS) continue;
      writeSync(fd, pending.join(''));
      pending = [];
      chars = 0;
    }
    writeSync(fd, pending.join(''));
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = 0x0a;

/**
 * /reviews.json read back a line (a review) at a time: most lines are ASCII, and many
 * small one-byte strings parse faster and weigh half what one document-long string
 * does as soon as a single review holds a character beyond Latin-1.
 */
export function readReviewsDocument(file: string): ReviewsDataset {
  const bytes = readFileSync(file);
  const firstEnd = bytes.indexOf(NEWLINE);
  const head = parseReviewsDatasetHead(bytes.toString('utf8', 0, firstEnd));
  if (!head) throw new Error(`${file} is not a /reviews.json written by the content step.`);
  const reviews: Review[] = [];
  for (let start = firstEnd + 1, end = bytes.indexOf(NEWLINE, start); end !== -1; start = end + 1, end = bytes.indexOf(NEWLINE, start)) {
    const line = bytes.toString('utf8', start, end);
    if (line === REVIEWS_DATASET_END) break;
    reviews.push(JSON.parse(line.endsWith(REVIEW_LINE_END) ? line.slice(0, -REVIEW_LINE_END.length) : line) as Review);
  }
  return { ...head, reviews };
}
