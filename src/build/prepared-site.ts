/**
 * How `npm run build` hands the site it prepared (prepare-content.ts) to the Astro
 * build (load-site.ts): a small file naming the published reviews, whose records
 * are read from the cache of prepared reviews.
 */
import { readFileSync } from 'node:fs';
import type { ReviewRecord } from '../domain/schemas/review.ts';
import type { SiteEditorial } from '../domain/site.ts';
import { loadReviewCache } from './review-cache.ts';

/** The environment variable naming the file, set for Astro's process by build-site.ts. */
export const PREPARED_SITE_ENV = 'PREPARED_SITE_FILE';

export interface PreparedSite {
  content: SiteEditorial;
  /** The cache folder holding this build's prepared reviews. */
  cacheDir: string;
  /** The paths of the published reviews' files, in file order. */
  published: string[];
}

/** The site's content and its published records, in file order. */
export function readPreparedSite(file: string): { content: SiteEditorial; reviews: ReviewRecord[] } {
  const { content, cacheDir, published } = JSON.parse(readFileSync(file, 'utf8')) as PreparedSite;
  const cache = loadReviewCache(cacheDir);
  const reviews = published.map((path) => {
    const review = cache.get(path)?.published;
    if (!review) throw new Error(`${cacheDir} lacks the prepared review of ${path}; run the build again.`);
    return review;
  });
  return { content, reviews };
}
