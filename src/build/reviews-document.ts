/**
 * /reviews.json, the build's largest document, is written by the content step
 * (prepare-content.ts) from the records it holds, not by Astro: it is then compressed
 * while Astro renders, and Astro reads the site back from it (prepared-site.ts) instead
 * of the cache of prepared reviews. Both sides go through the domain's serialisation.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { reviewsDatasetLines, type ReviewsDatasetHead } from '../domain/datasets.ts';
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

export function readReviewsDocument(file: string): ReviewsDataset {
  return JSON.parse(readFileSync(file, 'utf8')) as ReviewsDataset;
}
