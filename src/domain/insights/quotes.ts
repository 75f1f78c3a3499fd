/**
 * Which sentences the insights quote. A quote stands for its sentiment in highlights and
 * FAQ answers, so only sentences whose label the analyzer is sure of are quoted: a
 * confidence of at least QUOTE_MIN_CONFIDENCE (owner labels are sure; a label without a
 * confidence figure counts as sure), and an excerpt to quote at all.
 */
import type { AspectInsight } from '../schemas/insights.ts';
import type { Review, ReviewAspect } from '../schemas/review.ts';

export const QUOTE_MIN_CONFIDENCE = 0.7;
const HIGHLIGHTS_PER_SENTIMENT = 2;

export interface Mention {
  review: Review;
  found: ReviewAspect;
}

interface QuotableMention extends Mention {
  found: ReviewAspect & { excerpt: string };
}

export function isQuotable(m: Mention): m is QuotableMention {
  return m.found.excerpt !== null && (m.found.confidence ?? 1) >= QUOTE_MIN_CONFIDENCE;
}

/** The strongest sure quotes of each polarity, one per review; reviews come newest first, so ties go to the newest. */
export function pickHighlights(mentions: readonly Mention[]): AspectInsight['highlights'] {
  const picked: AspectInsight['highlights'] = [];
  for (const sentiment of ['positive', 'negative'] as const) {
    const seen = new Set<string>();
    const candidates = mentions
      .filter(isQuotable)
      .filter((m) => m.found.sentiment === sentiment)
      .map((m, order) => ({ ...m, order }))
      .sort((a, b) => Math.abs(b.found.score) - Math.abs(a.found.score) || a.order - b.order);
    for (const { review, found } of candidates) {
      if (seen.has(review.id) || seen.size >= HIGHLIGHTS_PER_SENTIMENT) continue;
      seen.add(review.id);
      picked.push({ review_id: review.id, excerpt: found.excerpt, sentiment });
    }
  }
  return picked;
}
