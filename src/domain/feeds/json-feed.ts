import { dateToInstant } from '../dates.ts';
import type { JsonFeed } from '../schemas/datasets.ts';
import type { Site } from '../site.ts';
import { entryUpdated, businessLanguage, feedReviews, reviewHeadline, reviewPlainText } from './feed-entries.ts';

/** JSON Feed 1.1 (written here, as the Atom feed is: feed libraries write 1.0). */
export function jsonFeed(site: Site): JsonFeed {
  const { business, urls } = site;
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: `${business.name}: verified customer reviews`,
    home_page_url: urls.home,
    feed_url: urls.jsonFeed,
    description: `The ${Math.min(50, site.reviews.length)} newest verified customer reviews of ${business.name}.`,
    language: businessLanguage(business),
    authors: [{ name: business.name, url: business.url }],
    hubs: [{ type: 'WebSub', url: urls.hub }],
    items: feedReviews(site.reviews).map((review) => {
      const modified = entryUpdated(review);
      return {
        id: review.id,
        url: review.url,
        title: reviewHeadline(review),
        content_text: reviewPlainText(review, business.name),
        date_published: dateToInstant(review.date),
        ...(modified !== review.date ? { date_modified: dateToInstant(modified) } : {}),
        authors: [{ name: review.author.name }],
        tags: [`${review.rating}-star`, ...review.services.map((s) => s.id)],
        _review: {
          rating: review.rating,
          verified: true,
          services: review.services.map((s) => s.id),
          technicians: review.technicians.map((t) => t.id),
          service_area: review.service_area?.id ?? null,
        },
      };
    }),
  };
}
