/**
 * The structured data (schema.org JSON-LD) of the pages for people: the business,
 * as the most specific type business.json names, with its aggregate rating and the
 * reviews the page shows. Search engines and link previews read it; what they do
 * with a business's own reviews is in docs/pages.md.
 */
import type { AggregateRating, LocalBusiness, Review as SchemaReview, WithContext } from 'schema-dts';
import type { AggregateRating as PublishedAggregate } from '../aggregate.ts';
import type { ReviewsDatasetHead } from '../datasets.ts';
import type { Review } from '../schemas/review.ts';
import type { SiteUrls } from '../site-urls.ts';
import { businessTypeOf } from './business-types.ts';

export interface BusinessJsonLdInput {
  /** The business as published (business.json), in /reviews.json and the catalog alike. */
  business: ReviewsDatasetHead['business'];
  aggregate: PublishedAggregate;
  urls: Pick<SiteUrls, 'home'>;
  /** The reviews the page shows, each with its page's address. */
  reviews: readonly Review[];
}

function reviewJsonLd(review: Review): SchemaReview {
  return {
    '@type': 'Review',
    '@id': review.url,
    url: review.url,
    ...(review.title ? { name: review.title } : {}),
    reviewBody: review.text,
    datePublished: review.date,
    author: { '@type': 'Person', name: review.author.name },
    reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
  };
}

function aggregateJsonLd(aggregate: PublishedAggregate): AggregateRating | undefined {
  // A rating of no reviews is no rating: schema.org consumers reject a count of 0.
  if (aggregate.rating_value === null || aggregate.review_count === 0) return undefined;
  return { '@type': 'AggregateRating', ratingValue: aggregate.rating_value, reviewCount: aggregate.review_count, bestRating: 5, worstRating: 1 };
}

/** The business with its rating and these reviews, as one JSON-LD object. */
export function businessJsonLd({ business, aggregate, urls, reviews }: BusinessJsonLdInput): WithContext<LocalBusiness> {
  const rating = aggregateJsonLd(aggregate);
  const { address } = business;
  const node: Exclude<LocalBusiness, string> = {
    '@type': businessTypeOf(business),
    // One id for the business on every page, so consumers merge what the pages say of it.
    '@id': `${urls.home}#business`,
    name: business.name,
    url: business.url,
    ...(business.telephone ? { telephone: business.telephone } : {}),
    ...(business.email ? { email: business.email } : {}),
    ...(business.description ? { description: business.description } : {}),
    ...(address
      ? {
          address: {
            '@type': 'PostalAddress',
            streetAddress: address.street,
            addressLocality: address.locality,
            addressRegion: address.region,
            postalCode: address.postal_code,
            addressCountry: address.country,
          },
        }
      : {}),
    ...(business.service_areas.length > 0 ? { areaServed: business.service_areas.map((area) => ({ '@type': 'Place' as const, name: area.name })) } : {}),
    ...(rating ? { aggregateRating: rating } : {}),
    ...(reviews.length > 0 ? { review: reviews.map(reviewJsonLd) } : {}),
  };
  return { '@context': 'https://schema.org', ...node };
}

/**
 * JSON as the text of a `<script type="application/ld+json">`: `<`, `>` and `&`
 * written as JSON escapes, so no `</script>` or `<!--` in a review ends or changes
 * the script, and U+2028/U+2029 escaped for readers that take it as JavaScript.
 */
export function jsonLdScriptText(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
