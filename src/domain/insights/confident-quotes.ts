/**
 * The quotes the home page leads with: the sentences the analyzer is most sure of, as it
 * read them. Only quotable sentences (quotes.ts: an excerpt, a confidence at or over
 * QUOTE_MIN_CONFIDENCE) are candidates, whatever their sentiment, so a sure complaint is
 * quoted as readily as sure praise. One quote per review and per aspect, so a few quotes
 * cover as many reviews and topics as they can.
 */
import type { AspectId, Sentiment } from '../schemas/aspects.ts';
import type { Review } from '../schemas/review.ts';
import { bestPerReview, isQuotable, type QuotableMention } from './quotes.ts';

export interface ConfidentQuote {
  review_id: string;
  author: string;
  rating: number;
  aspect: AspectId;
  sentiment: Sentiment;
  excerpt: string;
  confidence: number;
}

/** A quotable label and its place among all the labels of all the reviews, in their order. */
type Candidate = QuotableMention & { order: number };

/** Surer first, then the stronger sentence; among equals the one met first (the newer review). */
function surer(a: Candidate, b: Candidate): boolean {
  return a.found.confidence > b.found.confidence || (a.found.confidence === b.found.confidence && Math.abs(a.found.score) > Math.abs(b.found.score));
}

/**
 * At most `count` quotes, surest first; ties go to the stronger sentence, then the newer review (reviews come newest first).
 * Each quote is the surest candidate whose review and aspect are not quoted yet, so the quote of an aspect is among its
 * `count` surest candidates of different reviews: only those are kept, in one pass over the labels, and then sorted.
 */
export function confidentQuotes(reviews: readonly Review[], count: number): ConfidentQuote[] {
  const byAspect = new Map<AspectId, ReturnType<typeof bestPerReview<Candidate>>>();
  let order = 0;
  for (const review of reviews) {
    for (const found of review.aspects) {
      const mention = { review, found, order: order++ };
      if (!isQuotable(mention)) continue;
      let best = byAspect.get(found.aspect);
      if (!best) byAspect.set(found.aspect, (best = bestPerReview(Math.ceil(count), surer)));
      best.offer(mention);
    }
  }
  const candidates = [...byAspect.values()].flatMap((best) => best.kept).sort((a, b) => (surer(a, b) ? -1 : surer(b, a) ? 1 : a.order - b.order));
  const quotes: ConfidentQuote[] = [];
  const reviewsQuoted = new Set<string>();
  const aspectsQuoted = new Set<AspectId>();
  for (const { review, found } of candidates) {
    if (quotes.length >= count) break;
    if (reviewsQuoted.has(review.id) || aspectsQuoted.has(found.aspect)) continue;
    reviewsQuoted.add(review.id);
    aspectsQuoted.add(found.aspect);
    quotes.push({
      review_id: review.id,
      author: review.author.name,
      rating: review.rating,
      aspect: found.aspect,
      sentiment: found.sentiment,
      excerpt: found.excerpt,
      confidence: found.confidence,
    });
  }
  return quotes;
}
