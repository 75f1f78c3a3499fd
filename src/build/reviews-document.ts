/**
 * /reviews.json, the build's largest document, is written by the content step
 * (prepare-content.ts) from the records it holds, not by Astro: it is then compressed
 * while Astro renders, and Astro reads the site back from it (prepared-site.ts) instead
 * of the cache of prepared reviews. Both sides go through the domain's serialisation.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { parseReviewsDatasetHead, REVIEW_LINE_END, REVIEWS_DATASET_END, reviewsDatasetPieces, type ReviewsDatasetHead } from '../domain/datasets.ts';
import { publishedReviewOpening } from '../domain/published-review.ts';
import type { Review } from '../domain/schemas/review.ts';
import type { ReviewsDataset } from '../domain/schemas/datasets.ts';
import type { CachedPublished } from './review-cache.ts';

/** Bytes are gathered up to this many before each write. */
const WRITE_BYTES = 1 << 20;
/** The most bytes UTF-8 takes for one UTF-16 code unit. */
const UTF8_PER_UNIT = 3;

/** Writes to a file through one reused buffer: text is encoded into it and bytes copied, with no allocation per piece. */
class FileWriter {
  private readonly buffer = Buffer.allocUnsafe(WRITE_BYTES);
  private used = 0;
  private readonly fd: number;

  constructor(fd: number) {
    this.fd = fd;
  }

  write(piece: string | Uint8Array): void {
    const most = typeof piece === 'string' ? piece.length * UTF8_PER_UNIT : piece.length;
    if (this.used + most > WRITE_BYTES) this.flush();
    if (most > WRITE_BYTES) return this.writeAll(typeof piece === 'string' ? Buffer.from(piece) : piece);
    if (typeof piece === 'string') this.used += this.buffer.write(piece, this.used);
    else {
      this.buffer.set(piece, this.used);
      this.used += piece.length;
    }
  }

  flush(): void {
    this.writeAll(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private writeAll(bytes: Uint8Array): void {
    for (let written = 0; written < bytes.length; ) written += writeSync(this.fd, bytes, written, bytes.length - written);
  }
}

/**
 * Writes /reviews.json, given its head and its reviews in order with their pages'
 * addresses. A review loaded from the cache is copied as the bytes it was stored as:
 * the document is never one string, nor is any cached review decoded.
 */
export function writeReviewsDocument(file: string, head: ReviewsDatasetHead, reviews: readonly CachedPublished[], urlOf: (id: string) => string): void {
  const fd = openSync(file, 'w');
  try {
    const writer = new FileWriter(fd);
    for (const piece of reviewsDatasetPieces(head, reviews)) {
      if (typeof piece === 'string') writer.write(piece);
      else {
        writer.write(publishedReviewOpening(piece, urlOf(piece.id)));
        writer.write(typeof piece.json === 'string' ? piece.json.slice(1) : piece.json.subarray(1));
      }
    }
    writer.flush();
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = 0x0a;
const READ_BYTES = 1 << 20;

/** The lines of a file, without their newlines, read through one reused buffer (never the whole file at once). */
function* fileLines(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafeSlow(READ_BYTES);
    let carried: Buffer[] = [];
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      let start = 0;
      for (let newline = chunk.indexOf(NEWLINE); newline !== -1 && newline < read; newline = chunk.indexOf(NEWLINE, start)) {
        if (carried.length === 0) yield chunk.toString('utf8', start, newline);
        else {
          yield Buffer.concat([...carried, chunk.subarray(start, newline)]).toString('utf8');
          carried = [];
        }
        start = newline + 1;
      }
      if (start < read) carried.push(Buffer.from(chunk.subarray(start, read)));
    }
    if (carried.length > 0) yield Buffer.concat(carried).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * /reviews.json read back a line (a review) at a time: most lines are ASCII, and many
 * small one-byte strings parse faster and weigh half what one document-long string
 * does as soon as a single review holds a character beyond Latin-1.
 */
export function readReviewsDocument(file: string): ReviewsDataset {
  const lines = fileLines(file);
  const first = lines.next();
  const head = first.done ? undefined : parseReviewsDatasetHead(first.value);
  if (!head) throw new Error(`${file} is not a /reviews.json written by the content step.`);
  const reviews: Review[] = [];
  for (const line of lines) {
    if (line === REVIEWS_DATASET_END) break;
    reviews.push(JSON.parse(line.endsWith(REVIEW_LINE_END) ? line.slice(0, -REVIEW_LINE_END.length) : line) as Review);
  }
  return { ...head, reviews };
}
