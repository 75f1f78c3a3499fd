import type { Business, ContentReview } from './content/schema.ts';
import { markdownToPlainText } from './content/plain-text.ts';
import { createMentionFinder } from './mentions.ts';
import { applyOwnerCorrections } from './insights/owner-corrections.ts';
import type { AspectAnalyzer } from './insights/review-aspects.ts';
import type { ReviewRecord } from './schemas/review.ts';

/** Newest first: date descending, then id ascending. */
export function compareNewestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Oldest first: date ascending, then id ascending (the order a syncing client applies). */
export function compareOldestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Makes the public record of one verified review; the business gives the names of what it mentions. */
export function reviewPublisher(business: Business, analyze: AspectAnalyzer): (review: ContentReview) => ReviewRecord {
  const mentions = createMentionFinder(business);
  const areas = new Map(business.service_areas.map((a) => [a.id, a]));
  return (review) => {
    const text = markdownToPlainText(review.body);
    const searchable = review.title ? `${review.title}\n${text}` : text;
    const area = review.service_area ? areas.get(review.service_area) : undefined;
    return {
      id: review.id,
      rating: review.rating,
      date: review.date,
      title: review.title ?? null,
      text,
      author: { name: review.author },
      verified: true,
      verification: review.verification,
      source: review.source ?? null,
      service_area: area ? { id: area.id, name: area.name } : null,
      services: mentions.services(review.services, searchable).map(({ id, name }) => ({ id, name })),
      technicians: mentions.technicians(review.technicians, searchable).map(({ id, name }) => ({ id, name })),
      response: review.response ? { date: review.response.date, text: review.response.text } : null,
      aspects: applyOwnerCorrections(analyze(text, review.rating), review.aspects),
    };
  };
}

/** The public records of the verified reviews, newest first. Unverified reviews never leave here. */
export function toPublishedReviews(business: Business, reviews: ContentReview[], analyze: AspectAnalyzer): ReviewRecord[] {
  return reviews.filter((review) => review.verified).map(reviewPublisher(business, analyze)).sort(compareNewestFirst);
}
