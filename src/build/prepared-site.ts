/**
 * How `npm run build` hands the site it prepared (prepare-content.ts) to the Astro
 * build (load-site.ts): the content besides the reviews, written to Astro's stdin once
 * the content step is done (Astro bundles its server meanwhile), and the /reviews.json
 * the content step wrote, which holds the published reviews with their addresses,
 * newest first, the aggregate rating and the `updated` date.
 */
import { text } from 'node:stream/consumers';
import { siteUrls } from '../domain/site-urls.ts';
import type { Site, SiteEditorial } from '../domain/site.ts';
import { readReviewsDocument } from './reviews-document.ts';

/** The environment variable that tells Astro's process where its site comes from, set by build-site.ts. */
export const PREPARED_SITE_ENV = 'PREPARED_SITE';
/** Its value: on stdin. */
export const PREPARED_SITE_ON_STDIN = 'stdin';

export interface PreparedSite {
  content: SiteEditorial;
  /** The /reviews.json of this build, as the content step wrote it. */
  reviewsFile: string;
}

/** The site as the content step published it, once the build writes it to stdin and closes it. */
export async function receivePreparedSite(siteUrl: string): Promise<Site> {
  const received = await text(process.stdin);
  if (received === '') throw new Error('The build closed stdin without a site: its content step failed.');
  const { content, reviewsFile } = JSON.parse(received) as PreparedSite;
  const { aggregate_rating: aggregate, updated, reviews } = readReviewsDocument(reviewsFile);
  return { business: content.business, urls: siteUrls(siteUrl), reviews, aggregate, updated, content };
}
