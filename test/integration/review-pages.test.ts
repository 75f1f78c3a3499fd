/**
 * The review pages, the sitemap and the structured data of the built server over
 * real HTTP: every review's page shows it whole with its links, an id no review
 * has gets a 404 page for people, ETag and 304 work, every sitemap address and
 * every feed link answers 200 (the oldest review's too), and the pages' JSON-LD,
 * expanded by a JSON-LD processor, says what /reviews.json says.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ReviewsDataset } from '../../src/domain/schemas/datasets.ts';
import { TEST_SITE_URL } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { expandJsonLd, S, value, values } from '../support/json-ld.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let dataset: ReviewsDataset;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
  dataset = JSON.parse((await rawRequest(`${server.url}/reviews.json`)).text) as ReviewsDataset;
});
afterAll(() => server?.stop());

/** The server's own address for a link to SITE_URL. */
const onServer = (url: string) => `${server.url}${new URL(url).pathname}${new URL(url).search}`;
const page = (path: string, headers: Record<string, string> = {}) => rawRequest(`${server.url}${path}`, { headers });

function jsonLdOf(html: string): object[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((match) => JSON.parse(match[1] as string) as object);
}

describe('a review page', () => {
  it('is every review’s url, and shows it whole with its response, mentions, aspects and neighbours', async () => {
    expect(dataset.reviews.length).toBeGreaterThan(2);
    for (const [i, review] of dataset.reviews.entries()) {
      expect(review.url).toBe(`${TEST_SITE_URL}/reviews/${review.id}`);
      const res = await rawRequest(onServer(review.url));
      expect([res.status, res.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      const text = res.text.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
      for (const paragraph of review.text.split(/\n{2,}/)) expect(text).toContain(paragraph);
      if (review.title) expect(text).toContain(review.title);
      if (review.response) expect(text).toContain(review.response.text);
      for (const service of review.services) expect(res.text).toContain(`href="/reviews?mentions_service=${service.id}"`);
      for (const technician of review.technicians) expect(res.text).toContain(`href="/reviews?mentions_technician=${technician.id}"`);
      for (const aspect of review.aspects) if (aspect.excerpt) expect(text).toContain(aspect.excerpt);
      const newer = dataset.reviews[i - 1];
      const older = dataset.reviews[i + 1];
      expect(res.text.includes('rel="prev"')).toBe(newer !== undefined);
      expect(res.text.includes('rel="next"')).toBe(older !== undefined);
      if (newer) expect(res.text).toContain(`href="/reviews/${newer.id}" rel="prev"`);
      if (older) expect(res.text).toContain(`href="/reviews/${older.id}" rel="next"`);
      expect(res.text).toContain(`<link rel="canonical" href="${review.url}">`);
      expect(res.text).toContain(`<meta property="og:url" content="${review.url}">`);
      expect(res.text).toContain('<meta name="twitter:card" content="summary">');
    }
  });

  it('answers HEAD and conditional GET with a strong ETag, the same for the same build', async () => {
    const path = new URL((dataset.reviews[0] as { url: string }).url).pathname;
    const first = await page(path);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers['last-modified']).toBe(new Date(`${dataset.updated}T00:00:00Z`).toUTCString());
    expect((await page(path)).headers.etag).toBe(etag);
    const head = await rawRequest(`${server.url}${path}`, { method: 'HEAD' });
    expect([head.status, head.text, head.headers.etag, head.headers['content-length']]).toEqual([200, '', etag, String(first.body.length)]);
    const notModified = await page(path, { 'If-None-Match': etag });
    expect([notModified.status, notModified.text, notModified.headers.etag]).toEqual([304, '', etag]);
    const gzip = await page(path, { 'Accept-Encoding': 'gzip' });
    expect([gzip.headers['content-encoding'], gzip.headers.etag]).toEqual(['gzip', `${etag.slice(0, -1)}-gzip"`]);
    expect((await page(path, { 'If-None-Match': gzip.headers.etag as string, 'Accept-Encoding': 'gzip' })).status).toBe(304);
    expect((await page(path, { 'If-None-Match': '"other"' })).status).toBe(200);
    // Another review's page is another representation.
    expect((await page(new URL((dataset.reviews[1] as { url: string }).url).pathname)).headers.etag).not.toBe(etag);
  });

  it.each(['/reviews/no-such-review', '/reviews/d-hidden', '/reviews/A-ONE', '/reviews/a%zz', '/reviews/%2Fetc', '/reviews/a-one%00', `/reviews/${'a'.repeat(5000)}`, '/reviews/%3Cscript%3E'])(
    '%s is a 404 page for people with a link to the browser',
    async (path) => {
      const res = await page(path);
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([404, 'text/html; charset=utf-8', 'no-store']);
      expect(res.text).toContain('No such review');
      expect(res.text).toContain('<a href="/reviews"');
      expect(res.text).toContain('<meta name="robots" content="noindex">');
      expect(res.text).not.toContain('<script>');
    },
  );
});

describe('sitemap and robots.txt', () => {
  it('robots.txt names the sitemap, and every address of every sitemap answers 200', async () => {
    const robots = await page('/robots.txt');
    expect([robots.status, robots.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(robots.text).toContain(`Sitemap: ${TEST_SITE_URL}/sitemap.xml`);
    const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });
    const index = await page('/sitemap.xml');
    expect(index.headers.etag).toBeDefined();
    expect((await page('/sitemap.xml', { 'If-None-Match': index.headers.etag as string })).status).toBe(304);
    expect((await page('/sitemap.xml', { 'Accept-Encoding': 'br' })).headers['content-encoding']).toBe('br');
    const sitemaps = (parser.parse(index.text) as { sitemapindex: { sitemap: { loc: string }[] } }).sitemapindex.sitemap;
    const addresses: { loc: string; lastmod: string }[] = [];
    for (const { loc } of sitemaps) {
      const res = await rawRequest(onServer(loc));
      expect(res.status, loc).toBe(200);
      addresses.push(...(parser.parse(res.text) as { urlset: { url: { loc: string; lastmod: string }[] } }).urlset.url);
    }
    expect(addresses.map((a) => a.loc)).toEqual([`${TEST_SITE_URL}/`, `${TEST_SITE_URL}/reviews`, `${TEST_SITE_URL}/insights`, `${TEST_SITE_URL}/developers`, ...dataset.reviews.map((r) => r.url)]);
    for (const { loc, lastmod } of addresses) {
      expect(lastmod, loc).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect((await rawRequest(onServer(loc))).status, loc).toBe(200);
    }
  });

  it('every feed item links to its review’s page, which answers 200, down to the oldest review', async () => {
    const feed = JSON.parse((await page('/api/feed.json')).text) as { items: { id: string; url: string }[] };
    const atom = (await page('/feed.xml')).text;
    const alternates = [...atom.matchAll(/<link rel="alternate" type="text\/html" href="([^"]+)"\/>/g)].map((m) => m[1] as string).slice(1);
    const oldest = dataset.reviews.at(-1) as { id: string; url: string };
    expect(feed.items.map((item) => item.url)).toContain(oldest.url);
    expect(alternates).toEqual(feed.items.map((item) => item.url));
    for (const item of feed.items) {
      expect(item.url).toBe(`${TEST_SITE_URL}/reviews/${item.id}`);
      expect((await rawRequest(onServer(item.url))).status, item.url).toBe(200);
    }
  });
});

describe('structured data', () => {
  it('on the home page and each review page, expanded, says what /reviews.json says', async () => {
    const paths = ['/', ...dataset.reviews.map((review) => new URL(review.url).pathname)];
    for (const path of paths) {
      const html = (await page(path)).text;
      const blocks = jsonLdOf(html);
      expect(blocks, path).toHaveLength(1);
      const [business] = await expandJsonLd(blocks[0] as object);
      expect(business?.['@type'], path).toEqual([S(dataset.business.schema_type as string)]);
      expect(value(business as Record<string, unknown>, 'name')).toBe(dataset.business.name);
      const rating = value(business as Record<string, unknown>, 'aggregateRating') as Record<string, unknown>;
      expect([value(rating, 'ratingValue'), value(rating, 'reviewCount')]).toEqual([dataset.aggregate_rating.rating_value, dataset.aggregate_rating.review_count]);
      const shown = values(business as Record<string, unknown>, 'review');
      const expected = path === '/' ? dataset.reviews : dataset.reviews.filter((review) => new URL(review.url).pathname === path);
      expect(shown.map((review) => review['@id']), path).toEqual(expected.map((review) => review.url));
      for (const [i, review] of shown.entries()) {
        const published = expected[i] as ReviewsDataset['reviews'][number];
        expect(value(review, 'reviewBody')).toBe(published.text);
        expect(value(review, 'datePublished')).toBe(published.date);
        expect(value(value(review, 'author') as Record<string, unknown>, 'name')).toBe(published.author.name);
        expect(value(value(review, 'reviewRating') as Record<string, unknown>, 'ratingValue')).toBe(published.rating);
      }
    }
  });

  it('every page has a canonical link, OpenGraph and Twitter card tags', async () => {
    for (const path of ['/', '/reviews', '/reviews?rating=5']) {
      const html = (await page(path)).text;
      expect(html, path).toMatch(/<link rel="canonical" href="https:\/\/reviews\.example\.test\/[^"]*">/);
      for (const tag of ['og:type', 'og:title', 'og:description', 'og:url']) expect(html, path).toContain(`property="${tag}"`);
      expect(html, path).toContain('name="twitter:card"');
    }
  });
});
