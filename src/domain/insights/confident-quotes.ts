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

type Candidate = { review: Review; found: ReviewAspect & { excerpt: string } };

/** Surer first, then the stronger sentence; among equals the one met first (the newer review). */
function surer(a: Candidate, b: Candidate): boolean {
  return a.found.confidence > b.found.confidence || (a.found.confidence === b.found.confidence && Math.abs(a.found.score) > Math.abs(b.found.score));
}

/**
 * At most `count` quotes, surest first; ties go to the stronger sentence, then the newer review (reviews come newest first).
 * Each quote is the surest candidate whose review and aspect are not quoted yet: one pass over the candidates per
 * quote, as a home page shows a few quotes of many thousand sentences.
 */
export function confidentQuotes(reviews: readonly Review[], count: number): ConfidentQuote[] {
  const candidates: Candidate[] = [];
  for (const review of reviews) for (const found of review.aspects) if (isQuotable({ review, found })) candidates.push({ review, found: found as Candidate['found'] });
  const quotes: ConfidentQuote[] = [];
  const reviewsQuoted = new Set<string>();
  const aspectsQuoted = new Set<AspectId>();
  while (quotes.length < count) {
    let next: Candidate | undefined;
    for (const candidate of candidates) {
      if (next && !surer(candidate, next)) continue;
      if (reviewsQuoted.has(candidate.review.id) || aspectsQuoted.has(candidate.found.aspect)) continue;
      next = candidate;
    }
    if (!next) break;
    const { review, found } = next;
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
