/**
 * How `npm run build` hands the site it prepared (prepare-content.ts) to the Astro
 * build (load-site.ts): a small file with the content besides the reviews, and the
 * /reviews.json the content step wrote, which holds the published reviews with their
 * addresses, newest first, the aggregate rating and the `updated` date.
 */
import { readFileSync } from 'node:fs';
import { siteUrls } from '../domain/site-urls.ts';
import type { Site, SiteEditorial } from '../domain/site.ts';
import { readReviewsDocument } from './reviews-document.ts';

/** The environment variable naming the file, set for Astro's process by build-site.ts. */
export const PREPARED_SITE_ENV = 'PREPARED_SITE_FILE';

export interface PreparedSite {
  content: SiteEditorial;
  /** The /reviews.json of this build, as the content step wrote it. */
  reviewsFile: string;
}

/** The site as the content step published it. */
export function readPreparedSite(file: string, siteUrl: string): Site {
  const { content, reviewsFile } = JSON.parse(readFileSync(file, 'utf8')) as PreparedSite;
  const { aggregate_rating: aggregate, updated, reviews } = readReviewsDocument(reviewsFile);
  return { business: content.business, urls: siteUrls(siteUrl), reviews, aggregate, updated, content };
}
