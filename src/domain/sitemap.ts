/**
 * sitemap.xml (sitemaps.org protocol 0.9): an index at /sitemap.xml naming one
 * sitemap of the pages and as many of review pages as it takes, each at most
 * 50,000 addresses (the protocol's limit per file). Always an index, so a site of
 * ten reviews and one of 100,000 take the same path. Each address has its lastmod:
 * a review page's is the later of the review and its owner's response.
 */
import { reviewUpdated } from './aggregate.ts';
import type { Review } from './schemas/review.ts';
import type { SiteUrls } from './site-urls.ts';
import { xmlText } from './feeds/atom.ts';

/** The protocol's limit of addresses in one sitemap. */
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapEntry {
  loc: string;
  /** YYYY-MM-DD, or null when nothing dates it (a site with no review yet). */
  lastmod: string | null;
}

export interface SitemapFile {
  /** Its path on the site, e.g. /sitemaps/reviews-1.xml. */
  path: string;
  xml: string;
}

export interface SitemapInput {
  urls: Pick<SiteUrls, 'home'>;
  /** The pages for people besides the review pages, with when each last changed. */
  pages: readonly SitemapEntry[];
  /** Newest first, each with its page's address. */
  reviews: readonly Review[];
  /** The site's `updated` (newest review or response date). */
  updated: string | null;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const lastmod = (date: string | null) => (date ? `<lastmod>${date}</lastmod>` : '');

function urlset(entries: readonly SitemapEntry[]): string {
  const lines = entries.map(({ loc, lastmod: date }) => `<url><loc>${xmlText(loc)}</loc>${lastmod(date)}</url>`);
  return `${XML_DECLARATION}\n<urlset xmlns="${NAMESPACE}">\n${lines.join('\n')}${lines.length ? '\n' : ''}</urlset>\n`;
}

const newest = (entries: readonly SitemapEntry[]) => entries.reduce<string | null>((max, { lastmod: date }) => (date && (!max || date > max) ? date : max), null);

/** The index at /sitemap.xml and the sitemaps it names, in order (the index first). */
export function sitemapFiles({ urls, pages, reviews, updated }: SitemapInput, maxUrls = SITEMAP_MAX_URLS): SitemapFile[] {
  const base = urls.home.replace(/\/$/, '');
  const files: { path: string; entries: SitemapEntry[] }[] = [{ path: '/sitemaps/pages.xml', entries: [...pages] }];
  for (let start = 0; start < reviews.length; start += maxUrls) {
    const entries = reviews.slice(start, start + maxUrls).map((review) => ({ loc: review.url, lastmod: reviewUpdated(review) }));
    files.push({ path: `/sitemaps/reviews-${files.length}.xml`, entries });
  }
  const index = files.map(({ path, entries }) => `<sitemap><loc>${xmlText(base + path)}</loc>${lastmod(newest(entries) ?? updated)}</sitemap>`);
  return [
    { path: '/sitemap.xml', xml: `${XML_DECLARATION}\n<sitemapindex xmlns="${NAMESPACE}">\n${index.join('\n')}\n</sitemapindex>\n` },
    ...files.map(({ path, entries }) => ({ path, xml: urlset(entries) })),
  ];
}

/** robots.txt: everything may be crawled but the API's endless query spaces; it names the sitemap. */
export function robotsTxt(urls: Pick<SiteUrls, 'home'>): string {
  const base = urls.home.replace(/\/$/, '');
  return ['User-agent: *', 'Disallow: /api/reviews/', 'Disallow: /mcp', '', `Sitemap: ${base}/sitemap.xml`, ''].join('\n');
}
