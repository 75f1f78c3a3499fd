/**
 * Random query strings, dates and validators over real HTTP to search and since,
 * 5,000 of each from a fixed seed, eight at a time against one server: no 5xx, no
 * answer slower than the client's timeout, every 400 the documented
 * `{ error, message, issues }`, the server still answering afterwards, and its
 * peak resident memory bounded. Figures: docs/hostile-input.md.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectApiError, residentMemory, runConcurrently, seededRandom } from '../support/fuzz.ts';
import { rawRequest, type RawResponse } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const INPUTS = 5_000;
const CONCURRENCY = 8;
/** Far above what the small build needs (about 100 MiB): a leak or an unbounded answer passes it quickly. */
const MAX_PEAK_RSS_MIB = 512;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

const random = seededRandom(20_240_229);

const NAMES = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset', 'fields', 'min_rate', 'Rating', '__proto__', 'constructor', 'q', '', 'rating[]', 'a.b'];
const PIECES = ['3', '5', '0', '-1', '3.5', '1e3', '0x10', 'NaN', 'Infinity', '99999999999999999999', '2024-02-29', '2024-02-30', '2023-13-01', '0000-00-00', 'zoe', 'Zoë', 'ZOË', 'sam', 'roof-repair', 'gutters', 'id,rating', '', ' ', 'null', '[]', '{}', '"', "'", '\\', '<script>', 'a'.repeat(600), '🏠', '\u0301', '\u202e', '\u0000', '\u0007', '\ufffe', 'İ', 'ß', '日本語', '%', '%%', '%E0%A4%A', '%zz', '%C0%AF', '%ED%A0%80', '%00', '%2F', '+', '&', '=', '#', '?'];

/** A piece, sometimes left raw (broken percent-encoding on purpose), usually encoded. */
function encoded(piece: string): string {
  if (piece.startsWith('%') || random() < 0.1) return piece.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  return encodeURIComponent(piece);
}

function randomValue(): string {
  return Array.from({ length: random.int(1, 3) }, () => encoded(random.pick(PIECES))).join('');
}

/** Node refuses a request head over 16 KB (431, before any handler); the URLs stay under 8 KB. */
const MAX_URL = 8000;

function randomQuery(): string {
  const count = random() < 0.05 ? random.int(20, 60) : random.int(0, 5);
  const pairs = Array.from({ length: count }, () => {
    const name = random() < 0.85 ? random.pick(NAMES) : randomValue();
    return random() < 0.1 ? encoded(name) : `${encoded(name)}=${randomValue()}`;
  });
  // Now and then one very long value.
  if (pairs.length && random() < 0.1) pairs[0] += 'x'.repeat(random.int(1000, 6000));
  while (pairs.join('&').length > MAX_URL) pairs.pop();
  return pairs.length ? `?${pairs.join(random.pick(['&', '&', '&', '&&', ';']))}` : random.pick(['', '?', '?&', '?=']);
}

/**
 * A path segment: `/` and `\\` stay encoded, as they would make another path (and
 * Astro answers a doubled trailing slash with a redirect before any route runs).
 */
function randomDate(): string {
  if (random() < 0.3) {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    return `${pad(random.int(0, 2999), 4)}-${pad(random.int(0, 13), 2)}-${pad(random.int(0, 32), 2)}`;
  }
  return randomValue().replace(/[/\\?#]/g, (c) => encodeURIComponent(c));
}

function check(fullUrl: string, res: RawResponse): void {
  const url = fullUrl.length > 300 ? `${fullUrl.slice(0, 300)}…` : fullUrl;
  expect([200, 304, 400, 404], url).toContain(res.status);
  if (res.status === 304) return;
  expect(res.headers['content-type'], url).toMatch(/^application\/json/);
  if (res.status === 200) expect(Array.isArray((JSON.parse(res.text) as { reviews?: unknown }).reviews), url).toBe(true);
  else expectApiError(res.text, url, res.status === 400);
}

async function fuzz(urls: string[], headers: () => Record<string, string>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const started = performance.now();
  await runConcurrently(urls, CONCURRENCY, async (url) => {
    const res = await rawRequest(server.url + url, { headers: headers() });
    check(url, res);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;
  const memory = residentMemory(server.process.pid as number);
  console.info(`fuzz ${urls[0]?.split('?')[0]?.slice(0, 20)}…: ${urls.length} requests in ${seconds.toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}, server RSS peak ${memory?.peakMiB} MiB`);
  // Still answering, and within bounds.
  expect((await rawRequest(`${server.url}/api/reviews/search?rating=5`)).status).toBe(200);
  if (memory) expect(memory.peakMiB).toBeLessThan(MAX_PEAK_RSS_MIB);
  return statuses;
}

describe('fuzzing the on-demand routes', () => {
  it(`search: ${INPUTS} random query strings, all 200 or a 400 with issues`, async () => {
    const urls = Array.from({ length: INPUTS }, () => `/api/reviews/search${randomQuery()}`);
    const statuses = await fuzz(urls, () => ({}));
    // Both kinds of answer happened: the fuzzing reached the search, not only the checks.
    expect(statuses.get(200)).toBeGreaterThan(150);
    expect(statuses.get(400)).toBeGreaterThan(1500);
  }, 180_000);

  it(`since: ${INPUTS} random dates, query strings and validators`, async () => {
    const urls = Array.from({ length: INPUTS }, () => `/api/reviews/since/${randomDate()}${random() < 0.2 ? randomQuery() : ''}`);
    const validators = (): Record<string, string> => ({
      'If-None-Match': random.pick(['*', '"x"', 'W/"y"', '', ',,,', '"unterminated', 'x'.repeat(4000)]),
      'If-Modified-Since': random.pick(['', 'Sat, 01 Jun 2030 00:00:00 GMT', 'garbage', 'Thu, 01 Jan 1970 00:00:00 GMT']),
    });
    const statuses = await fuzz(urls, () => (random() < 0.3 ? validators() : {}));
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(statuses.get(400)).toBeGreaterThan(1500);
  }, 180_000);
});
