/**
 * Google Business Profile reviews, as the API's `accounts.locations.reviews.list`
 * answers a page (`{reviews, averageRating, totalReviewCount, nextPageToken}`) and as
 * a Takeout export holds them (`{reviews}` of the same Review objects, named by their
 * resource `name` ending in the review id, `reviewId` possibly absent), or a bare list
 * of reviews. Fields used: reviewId or name, reviewer.displayName and isAnonymous,
 * starRating (ONE..FIVE), comment, createTime, reviewReply.comment and updateTime.
 */
import { z } from 'zod';
import { dateIn } from '../dates.ts';
import type { ImportedReview } from './imported-review.ts';
import type { SourceProblem, SourceReading } from './import-outcome.ts';

const STARS = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 } as const;

const googleReviewSchema = z.looseObject({
  name: z.string().optional(),
  reviewId: z.string().optional(),
  reviewer: z.looseObject({ displayName: z.string().optional(), isAnonymous: z.boolean().optional() }).optional(),
  starRating: z.string().optional(),
  comment: z.string().optional(),
  createTime: z.string().optional(),
  updateTime: z.string().optional(),
  reviewReply: z.looseObject({ comment: z.string().optional(), updateTime: z.string().optional() }).optional(),
});
type GoogleReview = z.infer<typeof googleReviewSchema>;

/** A reviewer who chose to stay anonymous on Google: one word, so no privacy setting shortens it. */
const ANONYMOUS = 'Anonymous';

/** The reviews of a parsed Google JSON document, read in the business's time zone. */
export function readGoogleReviews(document: unknown, timeZone?: string): SourceReading {
  const list = Array.isArray(document) ? document : (document as { reviews?: unknown } | null)?.reviews;
  if (!Array.isArray(list)) {
    const problem = { where: 'the file', message: 'is not Google reviews JSON: expected {"reviews": [...]} (a reviews.list page or a Takeout reviews.json) or a list of reviews' };
    return { reviews: [], skipped: [], problems: [problem] };
  }
  const reading: SourceReading = { reviews: [], skipped: [], problems: [] };
  list.forEach((entry, index) => {
    const parsed = googleReviewSchema.safeParse(entry);
    const sourceId = parsed.success ? reviewIdOf(parsed.data) : undefined;
    const where = `review ${index + 1}${sourceId ? ` (id ${sourceId})` : ''}`;
    if (!parsed.success || !sourceId) {
      reading.problems.push({ where, message: 'has no reviewId (nor a name ending in /reviews/<id>)' });
      return;
    }
    const result = mapReview(parsed.data, sourceId, timeZone);
    if ('review' in result) reading.reviews.push(result.review);
    else (result.skip ? reading.skipped : reading.problems).push({ where, message: result.message });
  });
  return reading;
}

function reviewIdOf(review: GoogleReview): string | undefined {
  return review.reviewId?.trim() || /\/reviews\/([^/]+)$/.exec(review.name ?? '')?.[1];
}

type Mapped = { review: ImportedReview } | { skip: boolean; message: string };

function mapReview(review: GoogleReview, sourceId: string, timeZone?: string): Mapped {
  const rating = STARS[review.starRating as keyof typeof STARS];
  if (!rating) return { skip: false, message: `starRating ${JSON.stringify(review.starRating ?? null)} is not one of ONE, TWO, THREE, FOUR, FIVE` };
  const date = dayOf(review.createTime, timeZone);
  if (!date) return { skip: false, message: `createTime ${JSON.stringify(review.createTime ?? null)} is not an RFC 3339 timestamp` };
  const text = review.comment?.trim() ?? '';
  if (!text) return { skip: true, message: 'has a star rating but no comment; a published review needs its text' };
  const named = !review.reviewer?.isAnonymous && review.reviewer?.displayName?.trim();
  const mapped: ImportedReview = { source: 'google', sourceId, author: named || ANONYMOUS, rating, date, text, collectedAt: 'google' };
  const reply = review.reviewReply?.comment?.trim();
  if (reply) {
    const replied = dayOf(review.reviewReply?.updateTime, timeZone) ?? date;
    // A reply edited before the review was (re)written still answers it: it cannot predate it.
    mapped.response = { date: replied < date ? date : replied, text: reply };
  }
  return { review: mapped };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function dayOf(timestamp: string | undefined, timeZone?: string): string | null {
  if (!timestamp || !RFC3339.test(timestamp)) return null;
  const instant = new Date(timestamp);
  return Number.isNaN(instant.getTime()) ? null : dateIn(instant, timeZone);
}
