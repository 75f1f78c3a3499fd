import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { buildFixture, TEST_SITE_URL } from '../support/build.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

const since = (date: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(`${server.url}/api/reviews/since/${date}`, { headers, method });

describe('GET /api/reviews/since/{date}', () => {
  it('lists the reviews on or after the date, oldest first with ties by id', async () => {
    const res = await since('2024-03-12');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ since: '2024-03-12', count: 3 });
    expect(body.reviews.map((r: { id: string }) => r.id)).toEqual(['a-one', 'b-two', 'c-three']);
    expect(JSON.parse((await since('2024-05-01')).text).reviews.map((r: { id: string }) => r.id)).toEqual(['b-two', 'c-three']);
    expect(JSON.parse((await since('2024-05-02')).text)).toEqual({ since: '2024-05-02', count: 0, reviews: [] });
  });

  it('sends validators, CORS, caching and the OpenAPI link', async () => {
    const res = await since('2023-01-01');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers['last-modified']).toBe('Wed, 01 May 2024 00:00:00 GMT');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toMatch(/^public/);
    expect(res.headers.link).toContain('rel="service-desc"');
  });

  it('an empty listing still has validators: Last-Modified is the dataset\'s date', async () => {
    const res = await since('2030-01-01');
    expect(res.headers['last-modified']).toBe('Wed, 01 May 2024 00:00:00 GMT');
    expect((await since('2030-01-01', { 'If-None-Match': String(res.headers.etag) })).status).toBe(304);
  });

  it('a compressed listing has its own ETag, and either tag revalidates', async () => {
    const plain = await since('2023-01-01');
    const gz = await since('2023-01-01', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.etag).toBe(String(plain.headers.etag).replace(/"$/, '-gzip"'));
    expect((await since('2023-01-01', { 'If-None-Match': String(gz.headers.etag) })).status).toBe(304);
    expect((await since('2023-01-01', { 'If-None-Match': String(plain.headers.etag), 'Accept-Encoding': 'gzip' })).status).toBe(304);
  });

  it('answers 304 with an empty body and the same validators for a matching If-None-Match', async () => {
    const first = await since('2024-03-12');
    const etag = String(first.headers.etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await since('2024-03-12', { 'If-None-Match': header });
      expect(res.status, header).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['last-modified']).toBe(first.headers['last-modified']);
    }
  });

  it('a changed result never gets a 304: another date has another ETag', async () => {
    const a = await since('2024-03-12');
    const b = await since('2024-03-13');
    expect(a.text).not.toBe(b.text);
    expect(a.headers.etag).not.toBe(b.headers.etag);
    const res = await since('2024-03-13', { 'If-None-Match': String(a.headers.etag) });
    expect(res.status).toBe(200);
    expect(res.text).toBe(b.text);
  });

  it('If-Modified-Since gives 304 at or after Last-Modified, 200 before; If-None-Match wins', async () => {
    const at = await since('2024-01-01', { 'If-Modified-Since': 'Wed, 01 May 2024 00:00:00 GMT' });
    const before = await since('2024-01-01', { 'If-Modified-Since': 'Tue, 30 Apr 2024 23:59:59 GMT' });
    const garbage = await since('2024-01-01', { 'If-Modified-Since': 'soon' });
    const both = await since('2024-01-01', { 'If-None-Match': '"stale"', 'If-Modified-Since': 'Sat, 01 Jun 2030 00:00:00 GMT' });
    expect([at.status, before.status, garbage.status, both.status]).toEqual([304, 200, 200, 200]);
  });

  it('is compressed when asked, with Vary, the same bytes underneath', async () => {
    const plain = await since('2023-01-01', { 'Accept-Encoding': 'identity' });
    const gz = await since('2023-01-01', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(String(gz.headers.vary)).toMatch(/Accept-Encoding/);
  });

  it('HEAD gives the validators without a body', async () => {
    const get = await since('2024-01-01');
    const head = await since('2024-01-01', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it.each(['2024-02-30', '2023-02-29', '2024-13-01', '2024-5-1', 'yesterday', '2024-05-01T00:00:00Z', '%20'])(
    '%s is a 400 naming the date',
    async (date) => {
      const res = await since(date);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/json');
      expect(JSON.parse(res.text)).toMatchObject({ error: 'invalid_query', issues: [{ path: 'date', code: 'invalid_format' }] });
    },
  );

  it('query parameters are refused, not ignored', async () => {
    const res = await since('2024-01-01?limit=1');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'invalid_query', issues: [{ path: 'limit', code: 'unknown_parameter' }] });
  });

  it('a path with escaped letters is the same resource, with the same validators (RFC 3986 6.2.2.2)', async () => {
    const direct = await since('2024-03-12');
    const escaped = await rawRequest(`${server.url}/api/reviews/%73ince/2024-03-12`);
    expect([escaped.status, escaped.text, escaped.headers.etag, escaped.headers['last-modified']]).toEqual([
      direct.status,
      direct.text,
      direct.headers.etag,
      direct.headers['last-modified'],
    ]);
    const revalidated = await rawRequest(`${server.url}/api/reviews/%73ince/2024-03-12`, { headers: { 'If-None-Match': String(direct.headers.etag) } });
    expect(revalidated.status).toBe(304);
  });

  it('a wrong method is 405 with Allow; a missing date is a JSON 404', async () => {
    const post = await since('2024-01-01', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(post.text).error).toBe('method_not_allowed');
    const missing = await rawRequest(`${server.url}/api/reviews/since/`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error).toBe('not_found');
  });
});

describe('an identical rebuild', () => {
  let again: RunningServer;
  beforeAll(async () => {
    again = await startServer(await buildFixture('small', 'small-rebuilt', TEST_SITE_URL));
  });
  afterAll(() => again?.stop());

  it('keeps the bytes and the validators, so cached copies stay valid', async () => {
    for (const date of ['2000-01-01', '2024-05-01', '2030-01-01']) {
      const a = await since(date);
      const b = await rawRequest(`${again.url}/api/reviews/since/${date}`, { headers: { 'If-None-Match': String(a.headers.etag) } });
      expect(b.status, date).toBe(304);
      expect(b.headers['last-modified']).toBe(a.headers['last-modified']);
    }
  });
});
