/**
 * Random query strings over real HTTP to the widget's document and the iframe
 * embed, 5,000 of each from a fixed seed, eight at a time against one server: no
 * 5xx, a bounded peak memory, every 400 of the JSON route the documented `{ error, message, issues }`,
 * every 400 of the embed a page for people, and the server still answering.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectApiError, residentMemory, runConcurrently, seededRandom } from '../support/fuzz.ts';
import { rawRequest, type RawResponse } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const INPUTS = 5_000;
const CONCURRENCY = 8;
/** As for search: far above what the small build needs; a leak or an unbounded cache passes it quickly. */
const MAX_PEAK_RSS_MIB = 512;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

const random = seededRandom(20_261_129);

const NAMES = ['limit', 'sort', 'rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'offset', 'fields', 'Limit', 'sort[]', '__proto__', 'constructor', ''];
const PIECES = ['1', '5', '20', '21', '0', '-1', '3.5', '1e3', 'NaN', '99999999999999999999', 'newest', 'best', 'NEWEST', 'worst', '2024-02-29', '2024-02-30', 'zoe', 'Zoë', 'roof-repair', 'gutters', '', ' ', '"', '<script>', 'a'.repeat(600), '🏠', '\u0301', '\u0000', '\ufffe', '%', '%E0%A4%A', '%zz', '%C0%AF', '%00', '+', '&', '=', '#', '?'];

function encoded(piece: string): string {
  if (piece.startsWith('%') || random() < 0.1) return piece.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  return encodeURIComponent(piece);
}

function randomQuery(): string {
  const count = random() < 0.05 ? random.int(10, 40) : random.int(0, 4);
  const pairs = Array.from({ length: count }, () => {
    const name = random() < 0.85 ? random.pick(NAMES) : encoded(random.pick(PIECES));
    const value = Array.from({ length: random.int(1, 2) }, () => encoded(random.pick(PIECES))).join('');
    return random() < 0.1 ? encoded(name) : `${encoded(name)}=${value}`;
  });
  while (pairs.join('&').length > 8000) pairs.pop();
  return pairs.length ? `?${pairs.join(random.pick(['&', '&', '&', ';']))}` : random.pick(['', '?', '?&']);
}

function check(url: string, res: RawResponse): void {
  const shown = url.length > 300 ? `${url.slice(0, 300)}…` : url;
  expect([200, 304, 400], shown).toContain(res.status);
  if (url.startsWith('/api/')) {
    expect(res.headers['content-type'], shown).toBe('application/json');
    if (res.status === 200) expect(Array.isArray((JSON.parse(res.text) as { reviews?: unknown }).reviews), shown).toBe(true);
    else expectApiError(res.text, shown, true);
  } else {
    expect(res.headers['content-type'], shown).toBe('text/html; charset=utf-8');
    expect(res.text, shown).toMatch(res.status === 200 ? /<h1>Reviews of / : /<h1>These reviews cannot be shown<\/h1>/);
    expect(res.text, shown).not.toMatch(/<script/i);
  }
}

async function fuzz(urls: string[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const started = performance.now();
  await runConcurrently(urls, CONCURRENCY, async (url) => {
    const res = await rawRequest(server.url + url);
    check(url, res);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;
  const memory = residentMemory(server.process.pid as number);
  console.info(`fuzz ${urls[0]?.split('?')[0]}: ${urls.length} requests in ${seconds.toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}, server RSS peak ${memory?.peakMiB} MiB`);
  if (memory) expect(memory.peakMiB).toBeLessThan(MAX_PEAK_RSS_MIB);
  expect((await rawRequest(`${server.url}/api/widget`)).status).toBe(200);
  return statuses;
}

describe('fuzzing the widget and the embed', () => {
  it.each(['/api/widget', '/embed'])(`%s: ${INPUTS} random query strings, all 200 or a clear 400`, async (path) => {
    const statuses = await fuzz(Array.from({ length: INPUTS }, () => `${path}${randomQuery()}`));
    // Both kinds of answer happened: the fuzzing reached the reviews, not only the checks.
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(statuses.get(400)).toBeGreaterThan(500);
  }, 180_000);
});
