import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { TEST_SITE_URL } from '../support/build.ts';

let server: RunningServer;
let published: string;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
  published = (await rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'identity' } })).text;
});
afterAll(() => server?.stop());

const get = (query: string, headers: Record<string, string> = {}) => rawRequest(`${server.url}/api/reviews/search${query}`, { headers });
const idsOf = (text: string) => (JSON.parse(text) as { reviews: { id: string }[] }).reviews.map((r) => r.id);

describe('GET /api/reviews/search', () => {
  it('answers JSON with CORS, caching and the OpenAPI link', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(res.headers.link).toBe(`<${TEST_SITE_URL}/.well-known/openapi.json>; rel="service-desc"; type="application/json"`);
  });

  it('gives every verified review newest first, ties by id, in the envelope', async () => {
    const body = JSON.parse((await get('')).text);
    expect(body).toMatchObject({ total: 4, count: 4, offset: 0, limit: 20 });
    expect(body.reviews.map((r: { id: string }) => r.id)).toEqual(['b-two', 'c-three', 'a-one', 'e-five']);
  });

  it('sends each review exactly as /reviews.json has it', async () => {
    const res = await get('?limit=100');
    const reviews = JSON.parse(res.text).reviews as unknown[];
    for (const review of reviews) expect(published).toContain(JSON.stringify(review));
    expect(res.text.endsWith(']}\n')).toBe(true);
  });

  it('finds text case- and accent-insensitively: "zoe" finds "Zoë"', async () => {
    expect(idsOf((await get('?query=zoe')).text)).toEqual(['b-two', 'e-five']);
    expect(idsOf((await get('?query=ZO%C3%8B')).text)).toEqual(['b-two', 'e-five']);
    expect(idsOf((await get('?query=%5Bb%5D')).text)).toEqual([]);
  });

  it('filters by technician name or alias, service, rating and dates, combined with AND', async () => {
    expect(idsOf((await get('?mentions_technician=Zo%C3%AB%20Lund')).text)).toEqual(['b-two', 'e-five']);
    expect(idsOf((await get('?mentions_technician=sam')).text)).toEqual(['a-one']);
    expect(idsOf((await get('?mentions_service=roof-repair')).text)).toEqual(['a-one', 'e-five']);
    // A service by name or alias, any case or accents, as a technician is.
    expect(idsOf((await get('?mentions_service=Roof%20R%C3%A9pair')).text)).toEqual(['a-one', 'e-five']);
    expect(idsOf((await get('?mentions_service=LEAK%20REPAIR')).text)).toEqual(['a-one', 'e-five']);
    expect(idsOf((await get('?mentions_technician=zoe%20lund')).text)).toEqual(['b-two', 'e-five']);
    expect(idsOf((await get('?min_rating=3.5')).text)).toEqual(['c-three', 'a-one']);
    expect(idsOf((await get('?rating=2')).text)).toEqual(['b-two']);
    expect(idsOf((await get('?since=2023-01-15&until=2024-03-12')).text)).toEqual(['a-one', 'e-five']);
    expect(idsOf((await get('?mentions_technician=zoe&min_rating=3')).text)).toEqual(['e-five']);
  });

  it('a technician nobody has gives an empty result, not an error', async () => {
    const res = await get('?mentions_technician=Nobody%20Here');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ total: 0, count: 0, offset: 0, limit: 20, reviews: [] });
  });

  it('pages with limit and offset', async () => {
    const body = JSON.parse((await get('?limit=2&offset=1')).text);
    expect(body).toMatchObject({ total: 4, count: 2, offset: 1, limit: 2 });
    expect(body.reviews.map((r: { id: string }) => r.id)).toEqual(['c-three', 'a-one']);
  });

  it('is compressed for clients that ask, always with Vary', async () => {
    const plain = await get('?limit=100');
    const br = await get('?limit=100', { 'Accept-Encoding': 'br, gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect([plain.headers.vary, br.headers.vary]).toEqual(['Accept-Encoding', 'Accept-Encoding']);
  });

  it('HEAD gives the headers without a body', async () => {
    const res = await rawRequest(`${server.url}/api/reviews/search?rating=5`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.length).toBe(0);
  });
});

describe('a path with escaped letters', () => {
  // RFC 3986 6.2.2.2: a percent-encoded unreserved character stands for itself.
  it.each(['?query=zoe', '?rating=9', ''])('is the search too, with the same answer to %s', async (query) => {
    const plain = await get(query);
    const escaped = await rawRequest(`${server.url}/api/reviews/%73earch${query}`);
    expect([escaped.status, escaped.text]).toEqual([plain.status, plain.text]);
    for (const header of ['content-type', 'cache-control', 'access-control-allow-origin', 'link', 'content-length']) {
      expect(escaped.headers[header], header).toBe(plain.headers[header]);
    }
  });
});
