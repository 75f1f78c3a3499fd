/**
 * The widget's document (`GET /api/widget`) and the embed's reviews: the rating and
 * count of every review, and the first `limit` reviews the search gives for the
 * filters, newest first, or best first (five stars, then four…, newest first
 * within a rating: the search run once per rating, so the reviews are exactly
 * the search's).
 */
import { browseUrl } from '../catalog/browse.ts';
import type { ReviewCatalog } from '../catalog/review-catalog.ts';
import { searchReviews } from '../catalog/search.ts';
import { businessLanguage } from '../feeds/feed-entries.ts';
import type { Review } from '../schemas/review.ts';
import { WIDGET_EXCERPT_MAX, type WidgetResponse, type WidgetReview } from '../schemas/widget.ts';
import type { SiteUrls } from '../site-urls.ts';
import type { WidgetQuery } from './widget-query.ts';

/** The matching reviews in the widget's order, and how many match. */
export function widgetSelection(catalog: ReviewCatalog, { search, sort }: WidgetQuery): { total: number; reviews: Review[] } {
  if (sort === 'newest') {
    const { response } = searchReviews(catalog, search);
    return { total: response.total, reviews: response.reviews as Review[] };
  }
  let total = 0;
  const reviews: Review[] = [];
  for (let rating = 5; rating >= 1; rating--) {
    if ((search.rating !== undefined && search.rating !== rating) || (search.min_rating ?? 1) > rating) continue;
    const wanted = search.limit - reviews.length;
    const result = searchReviews(catalog, { ...search, rating, limit: Math.max(wanted, 1) });
    total += result.counts.total;
    if (wanted > 0) reviews.push(...(result.response.reviews as Review[]).slice(0, wanted));
  }
  return { total, reviews };
}

/** The text on one line, cut at a word boundary after at most `max` characters (code points). */
export function excerptOf(text: string, max = WIDGET_EXCERPT_MAX): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  const characters = [...line];
  if (characters.length <= max) return line;
  const cut = characters.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.!?-]+$/u, '')}…`;
}

function widgetReview(review: Review, urls: SiteUrls): WidgetReview {
  return {
    id: review.id,
    url: urls.reviewPage(review.id),
    rating: review.rating,
    date: review.date,
    title: review.title,
    excerpt: excerptOf(review.text),
    author: review.author.name,
    has_response: review.response !== null,
  };
}

export function widgetDocument(catalog: ReviewCatalog, query: WidgetQuery, urls: SiteUrls): WidgetResponse {
  const { total, reviews } = widgetSelection(catalog, query);
  const { business } = catalog;
  return {
    business: { name: business.name, url: business.url },
    language: businessLanguage(business),
    rating_value: catalog.aggregateRating.rating_value,
    review_count: catalog.aggregateRating.review_count,
    sort: query.sort,
    total,
    reviews_url: browseUrl(urls.reviewBrowser, query.filters),
    reviews: reviews.map((review) => widgetReview(review, urls)),
  };
}
