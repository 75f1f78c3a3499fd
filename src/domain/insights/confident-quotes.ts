/**
 * The quotes the home page leads with: the sentences the analyzer is most sure of, as it
 * read them. Only quotable sentences (quotes.ts: an excerpt, a confidence at or over
 * QUOTE_MIN_CONFIDENCE) are candidates, whatever their sentiment, so a sure complaint is
 * quoted as readily as sure praise. One quote per review and per aspect, so a few quotes
 * cover as many reviews and topics as they can.
 */
import type { AspectId, Sentiment } from '../schemas/aspects.ts';
import type { Review, ReviewAspect } from '../schemas/review.ts';
import { isQuotable } from './quotes.ts';

export interface ConfidentQuote {
  review_id: string;
  author: string;
  rating: number;
  aspect: AspectId;
  sentiment: Sentiment;
  excerpt: string;
  confidence: number;
}

/** At most `count` quotes, surest first; ties go to the stronger sentence, then the newer review (reviews come newest first). */
export function confidentQuotes(reviews: readonly Review[], count: number): ConfidentQuote[] {
  type Candidate = { review: Review; found: ReviewAspect; order: number };
  const quotable = (c: Candidate): c is Candidate & { found: { excerpt: string } } => isQuotable(c);
  const candidates = reviews
    .flatMap((review, order) => review.aspects.map((found) => ({ review, found, order })))
    .filter(quotable)
    .sort((a, b) => b.found.confidence - a.found.confidence || Math.abs(b.found.score) - Math.abs(a.found.score) || a.order - b.order);
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
