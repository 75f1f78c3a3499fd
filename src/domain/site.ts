import type { Business } from './content/schema.ts';
import type { SiteContent } from './content/validate.ts';
import { aggregateRating, lastUpdated, type AggregateRating } from './aggregate.ts';
import type { AspectAnalyzer } from './insights/review-aspects.ts';
import { toPublishedReviews } from './review-record.ts';
import type { Review } from './schemas/review.ts';
import { siteUrls, type SiteUrls } from './site-urls.ts';

/** Everything the published documents are made from, computed once per build. */
export interface Site {
  business: Business;
  urls: SiteUrls;
  /** Verified reviews only, newest first. */
  reviews: Review[];
  aggregate: AggregateRating;
  /** Newest review or response date; the documents' `updated`, never the clock. */
  updated: string | null;
  content: SiteContent;
}

export function buildSite(content: SiteContent, siteUrl: string, analyze: AspectAnalyzer): Site {
  const reviews = toPublishedReviews(content.business, content.reviews, analyze);
  return {
    business: content.business,
    urls: siteUrls(siteUrl),
    reviews,
    aggregate: aggregateRating(reviews),
    updated: lastUpdated(reviews),
    content,
  };
}
