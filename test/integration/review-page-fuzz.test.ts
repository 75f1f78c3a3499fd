/**
 * Random ids for /reviews/{id} over real HTTP, 2,000 from a fixed seed, eight at a
 * time: odd characters, broken and valid percent-encoding, very long ids, queries.
 * Every answer is the review's page (200) or the 404 page for people, never a 5xx;
 * the only JSON is the 404 of a path that names one of the build's files once decoded
 * (`/reviews/..%2F` is /index.html), as everywhere else. The server still answers afterwards.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runConcurrently, seededRandom } from '../support/fuzz.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const INPUTS = 2_000;

let server: RunningServer;
let ids: string[];
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
  ids = (JSON.parse((await rawRequest(`${server.url}/reviews.json`)).text) as { reviews: { id: string }[] }).reviews.map((r) => r.id);
});
afterAll(() => server?.stop());

const random = seededRandom(20_261_129);
const PIECES = ['a', 'one', '-', '--', '0', 'A', 'É', 'é', '🏠', '\u0000', '\u202e', '<script>', '"', "'", '..', '.', ' ', '+', '%', '%zz', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%00', '%2F', '%2e%2e', '%5C', '%20', '%25', '?', '#', ';', '&', '='];

function randomId(): string {
  if (random() < 0.15) return random.pick(ids) + (random() < 0.5 ? random.pick(['', '/', '%20', '-', '?x=%zz']) : '');
  const parts = Array.from({ length: random.int(1, 6) }, () => random.pick(PIECES));
  if (random() < 0.05) parts.push('x'.repeat(random.int(200, 7000)));
  // Raw pieces keep their broken encodings; the rest are encoded, so the id stays one path segment.
  return parts.map((piece) => (piece.startsWith('%') ? piece : encodeURIComponent(piece))).join('');
}

describe('fuzzing /reviews/{id}', () => {
  it(`${INPUTS} random ids: the page or the 404 page, never a 5xx`, async () => {
    const statuses = new Map<number, number>();
    await runConcurrently(Array.from({ length: INPUTS }, randomId), 8, async (id) => {
      const res = await rawRequest(`${server.url}/reviews/${id}`);
      const url = `/reviews/${id.slice(0, 200)}`;
      expect([200, 404], url).toContain(res.status);
      expect(res.headers['content-type'], url).toMatch(res.status === 404 ? /^(text\/html|application\/json)/ : /^text\/html/);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    });
    console.info(`fuzz /reviews/{id}: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(statuses.get(200)).toBeGreaterThan(50);
    expect(statuses.get(404)).toBeGreaterThan(1000);
    expect((await rawRequest(`${server.url}/reviews/${ids[0]}`)).status).toBe(200);
  }, 180_000);
});
