import type { Site } from '../domain/site.ts';
import { insightsDocument } from '../domain/insights/document.ts';
import type { Insights } from '../domain/schemas/insights.ts';
import { sitemapFiles, type SitemapFile } from '../domain/sitemap.ts';
import { PREPARED_SITE_ENV, PREPARED_SITE_ON_STDIN, receivePreparedSite } from './prepared-site.ts';

let cached: Promise<Site> | undefined;

/** Reads, checks and analyses the content folder: what `npm run build` does before Astro runs. */
async function siteFromContent(siteUrl: string): Promise<Site> {
  const [{ formatProblems, validateContent }, { buildSite }, { analyzeReviewAspects }, { readContentFiles, resolveContentDir }] = await Promise.all([
    import('../domain/content/validate.ts'),
    import('../domain/site.ts'),
    import('../domain/insights/review-aspects.ts'),
    import('./read-content.ts'),
  ]);
  const dir = resolveContentDir();
  const result = validateContent(readContentFiles(dir), { now: new Date() });
  if (!result.ok) throw new Error(`${formatProblems(result.problems)}\n(content folder: ${dir})`);
  return buildSite(result.content, siteUrl, analyzeReviewAspects(result.content.aspectVocabulary));
}

/**
 * The site model, built once per build process: every pre-rendered page of a build
 * reads the same content, so it is read, checked and analysed a single time. Under
 * `npm run build` that is done by the content step (prepare-content.ts) while Astro
 * bundles, and the site it prepared is received; elsewhere (`astro dev`, a bare `astro build`) it is made here, with
 * the analyzer loaded only then.
 */
export function loadSite(siteUrl: string): Promise<Site> {
  cached ??= Promise.resolve().then(() => {
    if (process.env[PREPARED_SITE_ENV] === PREPARED_SITE_ON_STDIN) return receivePreparedSite(siteUrl);
    return siteFromContent(siteUrl);
  });
  return cached;
}

let insights: Promise<Insights> | undefined;

/** The insights document, computed once per build: the insights page and /insights.json share it. */
export function loadInsights(siteUrl: string): Promise<Insights> {
  insights ??= loadSite(siteUrl).then(insightsDocument);
  return insights;
}

let sitemaps: Promise<SitemapFile[]> | undefined;

/**
 * The sitemap index and its sitemaps, made once per build: /sitemap.xml and each
 * file under /sitemaps/ are routes of their own, of the same list. The pages for
 * people besides the review pages change with the reviews, so their lastmod is the
 * site's `updated`.
 */
export function loadSitemaps(siteUrl: string): Promise<SitemapFile[]> {
  sitemaps ??= loadSite(siteUrl).then(({ urls, reviews, updated }) =>
    sitemapFiles({ urls, reviews, updated, pages: [urls.home, urls.reviewBrowser, urls.insightsPage, urls.developersPage].map((loc) => ({ loc, lastmod: updated })) }),
  );
  return sitemaps;
}
