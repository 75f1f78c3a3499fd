/** The sitemap index and its sitemaps: every page and review page once, with lastmod, no file over its limit. */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapFiles } from '../../../src/domain/sitemap.ts';
import { siteFrom } from '../../support/site.ts';

const site = siteFrom([
  { id: 'a', date: '2024-01-01', response: { date: '2024-02-10', text: 'Thanks' } },
  { id: 'b', date: '2024-03-01' },
  { id: 'c', date: '2024-02-01' },
  { id: 'd', date: '2023-05-01' },
]);
const pages = [{ loc: site.urls.home, lastmod: site.updated }];
const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });

describe('sitemapFiles', () => {
  it('splits the review pages into sitemaps of at most the limit, all named by the index', () => {
    const files = sitemapFiles({ urls: site.urls, pages, reviews: site.reviews, updated: site.updated }, 3);
    expect(files.map((file) => file.path)).toEqual(['/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/reviews-1.xml', '/sitemaps/reviews-2.xml']);
    const [index, ...maps] = files.map((file) => parser.parse(file.xml) as Record<string, { sitemap?: { loc: string; lastmod: string }[]; url?: { loc: string; lastmod: string }[] }>);
    expect(index?.sitemapindex?.sitemap?.map((entry) => entry.loc)).toEqual(files.slice(1).map((file) => `https://site.example${file.path}`));
    const urls = maps.flatMap((map) => map.urlset?.url ?? []);
    expect(urls.map((url) => url.loc)).toEqual([site.urls.home, ...site.reviews.map((review) => review.url)]);
    expect(Math.max(...maps.map((map) => map.urlset?.url?.length ?? 0))).toBeLessThanOrEqual(3);
    // A review's lastmod is its owner's response when that is later.
    expect(urls.find((url) => url.loc.endsWith('/reviews/a'))?.lastmod).toBe('2024-02-10');
    expect(index?.sitemapindex?.sitemap?.[1]?.lastmod).toBe('2024-03-01');
  });

  it('escapes what XML must, and keeps the protocol limit by default', () => {
    const files = sitemapFiles({ urls: site.urls, pages: [{ loc: 'https://site.example/reviews?rating=5&page=2', lastmod: null }], reviews: site.reviews, updated: site.updated });
    expect(files).toHaveLength(3);
    expect(files[1]?.xml).toContain('<url><loc>https://site.example/reviews?rating=5&amp;page=2</loc></url>');
    const many = Array.from({ length: 50_001 }, (_, i) => ({ ...(site.reviews[0] as (typeof site.reviews)[number]), url: `https://site.example/reviews/r${i}` }));
    expect(sitemapFiles({ urls: site.urls, pages, reviews: many, updated: site.updated }).map((file) => file.path)).toEqual([
      '/sitemap.xml',
      '/sitemaps/pages.xml',
      '/sitemaps/reviews-1.xml',
      '/sitemaps/reviews-2.xml',
    ]);
  });
});

describe('robotsTxt', () => {
  it('names the sitemap and keeps crawlers out of the endless query spaces', () => {
    expect(robotsTxt(site.urls).split('\n')).toEqual(['User-agent: *', 'Disallow: /api/reviews/', 'Disallow: /mcp', '', 'Sitemap: https://site.example/sitemap.xml', '']);
  });
});
