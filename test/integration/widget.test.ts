/**
 * The badge, the widget's script and document, and the iframe embed, as clients get
 * them from the built server over real HTTP: types, validators and 304s, CORS,
 * precompression, the reviews the search gives for the same filters, 400s that
 * name the parameter, and the script's gzipped size (printed).
 */
import { Script } from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ReviewsDataset } from '../../src/domain/schemas/datasets.ts';
import { siteUrls } from '../../src/domain/site-urls.ts';
import { badgeSvg } from '../../src/domain/widget/badge.ts';
import { TEST_SITE_URL } from '../support/build.ts';
import { rawRequest, type RawResponse } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const WIDGET_MAX_GZIP_BYTES = 10 * 1024;
const urls = siteUrls(TEST_SITE_URL);

let server: RunningServer;
let dataset: ReviewsDataset;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
  dataset = JSON.parse((await rawRequest(`${server.url}/reviews.json`)).text);
});
afterAll(() => server?.stop());

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(server.url + path, { headers });
const ids = (res: RawResponse) => (JSON.parse(res.text) as { reviews: { id: string }[] }).reviews.map((review) => review.id);

/** A document of the build: strong ETag, 304 on it (also for the compressed copies' tags), precompressed copies. */
async function expectCachedDocument(path: string, type: string): Promise<RawResponse> {
  const res = await get(path, { 'Accept-Encoding': 'identity' });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(type);
  expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+/);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  const etag = res.headers.etag as string;
  expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
  const again = await get(path, { 'If-None-Match': etag });
  expect([again.status, again.body.length, again.headers.etag]).toEqual([304, 0, etag]);
  const gzipped = await get(path, { 'Accept-Encoding': 'gzip' });
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzipped.body)).toEqual(res.body);
  expect((await get(path, { 'If-None-Match': gzipped.headers.etag as string })).status).toBe(304);
  return res;
}

describe('GET /badge.svg', () => {
  it('is the rating and count of /reviews.json as SVG, a cached document of the build', async () => {
    const res = await expectCachedDocument('/badge.svg', 'image/svg+xml');
    const { aggregate_rating: rating, business } = dataset;
    expect(res.text).toBe(badgeSvg({ businessName: business.name, ratingValue: rating.rating_value, reviewCount: rating.review_count }));
    expect(res.text).toContain(`>${rating.review_count} reviews</text>`);
    expect(res.text).toContain(`<title id="badge-title">Acme &amp; Sons &lt;Roofing&gt;: Rated ${(rating.rating_value as number).toFixed(1)} out of 5`);
  });
});

describe('GET /widget.js', () => {
  it('is a classic script of the build, cached, well under 10 KB gzipped', async () => {
    const res = await expectCachedDocument('/widget.js', 'text/javascript; charset=utf-8');
    // It compiles as a classic script (not a module): one <script src> tag runs it.
    expect(() => new Script(res.text, { filename: 'widget.js' })).not.toThrow();
    expect(res.text).not.toMatch(/^\s*(import|export)\s/m);
    expect(res.text).toContain("customElements.define(TAG, ReviewsWidget)");
    const gzipped = gzipSync(res.body, { level: 9 }).length;
    const served = Number((await get('/widget.js', { 'Accept-Encoding': 'gzip' })).headers['content-length']);
    const brotli = Number((await get('/widget.js', { 'Accept-Encoding': 'br' })).headers['content-length']);
    console.info(`widget.js: ${res.body.length} bytes, ${served} gzipped as served (${gzipped} by gzip -9 here), ${brotli} brotli`);
    expect(served).toBeLessThan(WIDGET_MAX_GZIP_BYTES);
    expect(gzipped).toBeLessThan(WIDGET_MAX_GZIP_BYTES);
  });
});

describe('GET /api/widget', () => {
  it('answers the rating, the count and the newest reviews with their pages, with CORS and validators', async () => {
    const res = await get('/api/widget');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('ETag');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['last-modified']).toBe(new Date(`${dataset.updated}T00:00:00Z`).toUTCString());
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({
      business: { name: dataset.business.name, url: dataset.business.url },
      rating_value: dataset.aggregate_rating.rating_value,
      review_count: dataset.aggregate_rating.review_count,
      sort: 'newest',
      total: dataset.reviews.length,
      reviews_url: urls.reviewBrowser,
    });
    expect(body.reviews.map((r: { id: string; url: string }) => [r.id, r.url])).toEqual(dataset.reviews.slice(0, 5).map((r) => [r.id, urls.reviewPage(r.id)]));
    // Bytes that do not change within a build: the same ETag, and a 304 for it.
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await get('/api/widget')).headers.etag).toBe(etag);
    const revalidated = await get('/api/widget', { 'If-None-Match': etag });
    expect([revalidated.status, revalidated.body.length, revalidated.headers.etag, revalidated.headers['access-control-allow-origin']]).toEqual([304, 0, etag, '*']);
    expect((await get('/api/widget?limit=1', { 'If-None-Match': etag })).status).toBe(200);
  });

  it.each([
    ['', ''],
    ['limit=2', 'limit=2'],
    ['min_rating=3', 'min_rating=3&limit=5'],
    ['mentions_service=roof-repair&limit=20', 'mentions_service=roof-repair&limit=20'],
    ['mentions_technician=zoe&limit=20', 'mentions_technician=zoe&limit=20'],
    ['since=2024-01-01&until=2024-05-31&limit=20', 'since=2024-01-01&until=2024-05-31&limit=20'],
    ['query=roof&limit=20', 'query=roof&limit=20'],
    ['rating=2&limit=20', 'rating=2&limit=20'],
  ])('?%s gives exactly the reviews the search gives (?%s)', async (widgetQuery, searchQuery) => {
    const widget = await get(`/api/widget?${widgetQuery}`);
    const search = await get(`/api/reviews/search?${searchQuery || 'limit=5'}`);
    expect(widget.status).toBe(200);
    expect(ids(widget)).toEqual(ids(search));
    expect(JSON.parse(widget.text).total).toBe(JSON.parse(search.text).total);
  });

  it('sort=best gives five stars first, then four..., newest first within a rating, as the search per rating', async () => {
    const widget = await get('/api/widget?sort=best&limit=20');
    const expected: string[] = [];
    for (const rating of [5, 4, 3, 2, 1]) expected.push(...ids(await get(`/api/reviews/search?rating=${rating}&limit=100`)));
    expect(ids(widget)).toEqual(expected);
    expect(ids(await get('/api/widget?sort=best&limit=2'))).toEqual(expected.slice(0, 2));
  });

  it.each([
    ['limit=0', 'limit', 'limit must be a whole number from 1 to 20; got "0".'],
    ['limit=21', 'limit', 'limit must be a whole number from 1 to 20; got "21".'],
    ['sort=random', 'sort', 'sort must be newest or best; got "random".'],
    ['rating=6', 'rating', undefined],
    ['min_rating=abc', 'min_rating', undefined],
    ['mentions_service=chimney', 'mentions_service', undefined],
    ['colour=red', 'colour', undefined],
    ['limit=1&limit=2', 'limit', 'limit is given 2 times; give it once.'],
    ['query=%E0%A4%A', 'query', undefined],
  ])('?%s is a 400 naming %s and what is allowed', async (query, path, message) => {
    const res = await get(`/api/widget?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = JSON.parse(res.text);
    expect(body.error).toBe('invalid_query');
    expect(body.issues.map((issue: { path: string }) => issue.path)).toEqual([path]);
    if (message) expect(body.issues[0].message).toBe(message);
  });

  it('takes GET and HEAD only, and answers the public preflight', async () => {
    const head = await rawRequest(`${server.url}/api/widget`, { method: 'HEAD' });
    expect([head.status, head.body.length]).toEqual([200, 0]);
    const post = await rawRequest(`${server.url}/api/widget`, { method: 'POST' });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
    const preflight = await rawRequest(`${server.url}/api/widget`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('GET /embed', () => {
  it('is plain HTML without script, framable by any site, its links opening review pages in a new tab', async () => {
    const res = await get('/embed?limit=3');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toContain('script-src');
    expect(res.text).not.toMatch(/<script|\son[a-z]+=/i);
    expect(res.text).not.toMatch(/<link[^>]+stylesheet/i);
    const reviewLinks = [...res.text.matchAll(/<h2><a href="([^"]+)" target="_blank" rel="noopener">/g)].map((m) => m[1]);
    expect(reviewLinks).toEqual(dataset.reviews.slice(0, 3).map((r) => urls.reviewPage(r.id)));
    const anchors = res.text.match(/<a [^>]*>/g) ?? [];
    for (const anchor of anchors) expect(anchor).toMatch(/target="_blank" rel="noopener"/);
    expect(res.text).toContain('Reviews of Acme &amp; Sons &lt;Roofing&gt;');
  });

  it('shows the reviews the widget document has for the same parameters', async () => {
    for (const query of ['sort=best&limit=4', 'mentions_service=gutters', 'min_rating=4']) {
      const embed = await get(`/embed?${query}`);
      const linked = [...embed.text.matchAll(/<h2><a href="[^"]+\/reviews\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1] as string));
      expect(linked, query).toEqual(ids(await get(`/api/widget?${query}`)));
    }
  });

  it('answers a wrong parameter with a 400 page for people naming it and what is allowed', async () => {
    const res = await get('/embed?limit=500&sort=top');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('limit must be a whole number from 1 to 20; got &quot;500&quot;.');
    expect(res.text).toContain('sort must be newest or best; got &quot;top&quot;.');
    const malformed = await get('/embed?query=%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('query');
  });
});
