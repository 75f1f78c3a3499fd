import type { Business } from './content/schema.ts';
import type { SiteContent } from './content/validate.ts';
import { aggregateRating, lastUpdated, type AggregateRating } from './aggregate.ts';
import type { AspectAnalyzer } from './insights/review-aspects.ts';
import { compareNewestFirst, toPublishedReviews } from './review-record.ts';
import type { Review, ReviewRecord } from './schemas/review.ts';
import { siteUrls, type SiteUrls } from './site-urls.ts';

/** The content besides the reviews: what the documents take from it as it is. */
export type SiteEditorial = Omit<SiteContent, 'reviews'>;

/** Everything the published documents are made from, computed once per build. */
export interface Site {
  business: Business;
  urls: SiteUrls;
  /** Verified reviews only, newest first. */
  reviews: Review[];
  aggregate: AggregateRating;
  /** Newest review or response date; the documents' `updated`, never the clock. */
  updated: string | null;
  content: SiteEditorial;
}

export function buildSite(content: SiteContent, siteUrl: string, analyze: AspectAnalyzer): Site {
  return siteOf(content, siteUrl, toPublishedReviews(content.business, content.reviews, analyze));
}

/**
 * A review with its page's address, right after its id. The address is given here,
 * not when the review file is prepared, so the cache of prepared reviews does not
 * depend on SITE_URL.
 */
function withUrl({ id, ...rest }: ReviewRecord, urls: SiteUrls): Review {
  return { id, url: urls.reviewPage(id), ...rest };
}

/** The site of reviews published beforehand (by the build's cache, say), in any order. */
export function siteOf(content: SiteEditorial, siteUrl: string, published: ReviewRecord[]): Site {
  const urls = siteUrls(siteUrl);
  const reviews = published.sort(compareNewestFirst).map((record) => withUrl(record, urls));
  return {
    business: content.business,
    urls,
    reviews,
    aggregate: aggregateRating(reviews),
    updated: lastUpdated(reviews),
    content,
  };
}
