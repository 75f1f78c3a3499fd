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

/**
 * The strongest sure quotes of each polarity, one per review; reviews come newest first, so ties go to the newest.
 * One pass per polarity keeps the few best reviews so far, each with its strongest mention: an aspect has up to a
 * mention per sentence of every review, too many to sort for two quotes.
 */
export function pickHighlights(mentions: readonly Mention[]): AspectInsight['highlights'] {
  const picked: AspectInsight['highlights'] = [];
  for (const sentiment of ['positive', 'negative'] as const) {
    // Strongest first; among equals the earlier mention, as it comes first.
    const best: QuotableMention[] = [];
    const stronger = (a: QuotableMention, b: QuotableMention) => Math.abs(a.found.score) > Math.abs(b.found.score);
    for (const mention of mentions) {
      if (mention.found.sentiment !== sentiment || !isQuotable(mention)) continue;
      const same = best.findIndex((kept) => kept.review.id === mention.review.id);
      if (same >= 0) {
        if (!stronger(mention, best[same] as QuotableMention)) continue;
        best.splice(same, 1);
      } else if (best.length >= HIGHLIGHTS_PER_SENTIMENT && !stronger(mention, best[best.length - 1] as QuotableMention)) continue;
      let at = best.length;
      while (at > 0 && stronger(mention, best[at - 1] as QuotableMention)) at -= 1;
      best.splice(at, 0, mention);
      best.length = Math.min(best.length, HIGHLIGHTS_PER_SENTIMENT);
    }
    for (const { review, found } of best) picked.push({ review_id: review.id, excerpt: found.excerpt, sentiment });
  }
  return picked;
}
