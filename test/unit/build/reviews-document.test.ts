/**
 * /reviews.json as the build writes it (src/build/reviews-document.ts), through one
 * reused buffer, from reviews kept as text or as the cache's bytes, and as Astro's
 * process reads it back a chunk at a time: byte for byte the domain's serialisation,
 * and the same reviews read back, with lines that cross the reader's and the writer's
 * 1 MiB buffers, characters of up to four bytes split across them, and a review
 * larger than either buffer.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReviewsDocument, writeReviewsDocument } from '../../../src/build/reviews-document.ts';
import { aggregateRating, lastUpdated } from '../../../src/domain/aggregate.ts';
import { serializeReviewsDataset } from '../../../src/domain/datasets.ts';
import { publishedReview } from '../../../src/domain/published-review.ts';
import type { Review, ReviewRecord } from '../../../src/domain/schemas/review.ts';
import { fixtureDataset } from '../catalog/support.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'reviews-document-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const urlOf = (id: string) => `https://x.test/reviews/${id}`;

/** The fixture's reviews, then copies of them with texts long enough to cross the buffers (one over 1 MiB alone). */
function reviews(): Review[] {
  const fixture = fixtureDataset('small').dataset.reviews;
  const lengths = [700_000, 333_333, 1_500_000, 5, 900_001];
  const long = lengths.map((length, index) => {
    const base = fixture[index % fixture.length] as Review;
    // Characters of one, two, three and four bytes, so some straddle a buffer's edge.
    const text = 'aé€😀'.repeat(Math.ceil(length / 5)).slice(0, length);
    return { ...base, id: `long-${index}`, url: urlOf(`long-${index}`), text };
  });
  return [...fixture.map((review) => ({ ...review, url: urlOf(review.id) })), ...long];
}

describe('/reviews.json as the build writes and reads it', () => {
  it('is the domain serialisation byte for byte, from text and from cached bytes alike, and reads back whole', () => {
    const all = reviews();
    const records = all.map(({ url: _, ...record }) => publishedReview(record as ReviewRecord));
    // Every other review as the cache holds it after a load: its JSON as bytes.
    const kept = records.map((record, index) => (index % 2 === 0 ? record : { ...record, json: Buffer.from(record.json) }));
    const head = { business: fixtureDataset('small').dataset.business, aggregate_rating: aggregateRating(all), updated: lastUpdated(records) };
    const file = path.join(dir, 'reviews.json');
    writeReviewsDocument(file, head, kept, urlOf);

    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(bytes.toString('utf8')).toBe(serializeReviewsDataset({ ...head, reviews: all }));
    expect(readReviewsDocument(file)).toEqual({ ...head, reviews: all });
  });

  it('writes a document with no reviews, and reads it back', () => {
    const head = { business: fixtureDataset('small').dataset.business, aggregate_rating: aggregateRating([]), updated: null };
    const file = path.join(dir, 'reviews.json');
    writeReviewsDocument(file, head, [], urlOf);
    expect(readFileSync(file, 'utf8')).toBe(serializeReviewsDataset({ ...head, reviews: [] }));
    expect(readReviewsDocument(file)).toEqual({ ...head, reviews: [] });
  });

  it('refuses a file that is not a /reviews.json of the content step', () => {
    const file = path.join(dir, 'reviews.json');
    writeFileSync(file, '{"reviews":[]}\n');
    expect(() => readReviewsDocument(file)).toThrow(/is not a \/reviews\.json written by the content step/);
  });
});
