/**
 * Incremental sync at 100,000 generated reviews, where a listing can outgrow what the
 * server keeps per build (SINCE_CACHE_BYTES): every review since the oldest date is
 * answered from its parts, a chunk at a time, and a late date's listing is kept. Both
 * list exactly the dataset's reviews on or after the date, give the same bytes and
 * validators each time, and revalidate with a 304.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SINCE_CACHE_BYTES } from '../../src/server/reviews/review-routes.ts';
import { generatedSite } from '../support/generated-dataset.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

interface Listed {
  id: string;
  date: string;
}

let server: RunningServer;
let reviews: Listed[];
beforeAll(async () => {
  // Made once and kept in tmp/ (test/support/generated-dataset.ts), shared with the MCP budget test.
  const outDir = await generatedSite(inject('smallBuild'), 100_000);
  reviews = (JSON.parse(readFileSync(path.join(outDir, 'client/reviews.json'), 'utf8')) as { reviews: Listed[] }).reviews;
  server = await startServer(outDir, {}, 120);
}, 900_000);
afterAll(() => server?.stop());

const since = (date: string, headers: Record<string, string> = {}) => rawRequest(`${server.url}/api/reviews/since/${date}`, { headers });

/** The ids of the dataset's reviews dated on or after `date`. */
const expectedIds = (date: string) => reviews.filter((review) => review.date >= date).map((review) => review.id).sort();

describe('since at 100,000 reviews', () => {
  it('every review since the oldest date: over the kept budget, exact, the same bytes twice, revalidated', async () => {
    const oldest = reviews.reduce((min, review) => (review.date < min ? review.date : min), '9999-12-31');
    const first = await since(oldest);
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(SINCE_CACHE_BYTES);
    const body = JSON.parse(first.text) as { since: string; count: number; reviews: { id: string }[] };
    expect(body.count).toBe(reviews.length);
    expect(body.reviews.map((review) => review.id).sort()).toEqual(expectedIds(oldest));

    const second = await since(oldest);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect((await since(oldest, { 'If-None-Match': String(first.headers.etag) })).status).toBe(304);
  }, 120_000);

  it('a late date: a listing within the budget, kept, exact and the same each time', async () => {
    const dates = reviews.map((review) => review.date).sort();
    const late = dates[Math.floor(dates.length * 0.99)] as string;
    const first = await since(late);
    expect(first.status).toBe(200);
    expect(first.body.length).toBeLessThanOrEqual(SINCE_CACHE_BYTES);
    const body = JSON.parse(first.text) as { count: number; reviews: { id: string }[] };
    expect(body.reviews.map((review) => review.id).sort()).toEqual(expectedIds(late));
    expect(body.count).toBe(body.reviews.length);
    const second = await since(late);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers['last-modified']).toBe(first.headers['last-modified']);
    expect((await since(late, { 'If-Modified-Since': String(first.headers['last-modified']) })).status).toBe(304);
  }, 60_000);
});
