/**
 * Random query strings and dates, over real HTTP, to both on-demand routes: no
 * input may give a 5xx, a hang or anything but a JSON answer. Deterministic
 * (seeded), 2,400 requests, four at a time.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest, type RawResponse } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

let state = 20240229;
function rnd(): number {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 2 ** 32;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;

const NAMES = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset', 'min_rate', 'Rating', '__proto__', 'constructor', 'q', '', 'rating[]', 'a.b'];
const PIECES = ['3', '5', '0', '-1', '3.5', '1e3', '0x10', 'NaN', 'Infinity', '99999999999999999999', '2024-02-29', '2024-02-30', '2023-13-01', '0000-00-00', 'zoe', 'Zoë', 'ZOË', 'sam', 'roof-repair', 'gutters', '', ' ', 'null', '[]', '{}', '"', "'", '\\', '<script>', 'a'.repeat(600), '🏠', '\u0301', '\u202e', '\u0000', 'İ', 'ß', '日本語', '%', '%%', '%E0%A4%A', '%zz', '%C0%AF', '%ED%A0%80', '%00', '%2F', '+', '&', '=', '#', '?'];

/** A piece, sometimes left raw (broken percent-encoding on purpose), usually encoded. */
function encoded(piece: string): string {
  if (piece.startsWith('%') || rnd() < 0.1) return piece.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  return encodeURIComponent(piece);
}

function randomValue(): string {
  return Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => encoded(pick(PIECES))).join('');
}

/** Node refuses a request head over 16 KB (431, before any handler); the URLs stay under 8 KB. */
const MAX_URL = 8000;

function randomQuery(): string {
  const count = rnd() < 0.05 ? 20 + Math.floor(rnd() * 40) : Math.floor(rnd() * 6);
  const pairs = Array.from({ length: count }, () => {
    const name = rnd() < 0.85 ? pick(NAMES) : randomValue();
    return rnd() < 0.1 ? encoded(name) : `${encoded(name)}=${randomValue()}`;
  });
  // Now and then one very long value.
  if (pairs.length && rnd() < 0.1) pairs[0] += 'x'.repeat(1000 + Math.floor(rnd() * 5000));
  while (pairs.join('&').length > MAX_URL) pairs.pop();
  return pairs.length ? `?${pairs.join(pick(['&', '&', '&', '&&', ';']))}` : pick(['', '?', '?&', '?=']);
}

/**
 * A path segment: `/` and `\\` stay encoded, as they would make another path (and
 * Astro answers a doubled trailing slash with a redirect before any route runs).
 */
function randomDate(): string {
  if (rnd() < 0.3) {
    const y = Math.floor(rnd() * 3000);
    const m = Math.floor(rnd() * 14);
    const d = Math.floor(rnd() * 33);
    return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }
  return randomValue().replace(/[/\\?#]/g, (c) => encodeURIComponent(c));
}

function check(fullUrl: string, res: RawResponse): void {
  const url = fullUrl.length > 300 ? `${fullUrl.slice(0, 300)}…` : fullUrl;
  expect([200, 304, 400, 404], url).toContain(res.status);
  if (res.status === 304) return;
  expect(res.headers['content-type'], url).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  if (res.status === 200) expect(Array.isArray(body.reviews), url).toBe(true);
  else expect(typeof body.error === 'string' && typeof body.message === 'string', url).toBe(true);
}

async function fuzz(urls: string[], headers: () => Record<string, string>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      const res = await rawRequest(server.url + url, { headers: headers() });
      check(url, res);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return statuses;
}

describe('fuzzing the on-demand routes', () => {
  it('search: 1,600 random query strings, all answered 200 or 400 with JSON', async () => {
    const urls = Array.from({ length: 1600 }, () => `/api/reviews/search${randomQuery()}`);
    const statuses = await fuzz(urls, () => ({}));
    // Both kinds of answer happened: the fuzzing reached the search, not only the checks.
    expect(statuses.get(200)).toBeGreaterThan(50);
    expect(statuses.get(400)).toBeGreaterThan(500);
  }, 120_000);

  it('since: 800 random dates, query strings and validators', async () => {
    const urls = Array.from({ length: 800 }, () => `/api/reviews/since/${randomDate()}${rnd() < 0.2 ? randomQuery() : ''}`);
    const validators = (): Record<string, string> => ({
      'If-None-Match': pick(['*', '"x"', 'W/"y"', '', ',,,', '"unterminated']),
      'If-Modified-Since': pick(['', 'Sat, 01 Jun 2030 00:00:00 GMT', 'garbage']),
    });
    const statuses = await fuzz(urls, () => (rnd() < 0.3 ? validators() : {}));
    expect(statuses.get(200)).toBeGreaterThan(20);
    expect(statuses.get(400)).toBeGreaterThan(300);
  }, 120_000);
});
