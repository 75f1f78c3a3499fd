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

type Polarity = 'positive' | 'negative';

/**
 * The strongest sure quotes of each polarity, one per review, from mentions offered in order; reviews come
 * newest first, so ties go to the newest. It keeps the few best reviews so far, each with its strongest
 * mention: an aspect has up to a mention per sentence of every review, too many to sort for two quotes.
 */
export function highlightPicker(): { offer: (review: Review, found: ReviewAspect) => void; picked: () => AspectInsight['highlights'] } {
  // Per polarity, strongest first; among equals the earlier mention, as it was offered first.
  const best: Record<Polarity, QuotableMention[]> = { positive: [], negative: [] };
  const stronger = (a: QuotableMention, b: QuotableMention) => Math.abs(a.found.score) > Math.abs(b.found.score);
  const offer = (review: Review, found: ReviewAspect) => {
    const { sentiment } = found;
    const mention = { review, found };
    if (sentiment === 'neutral' || !isQuotable(mention)) return;
    const kept = best[sentiment];
    const same = kept.findIndex((m) => m.review.id === mention.review.id);
    if (same >= 0) {
      if (!stronger(mention, kept[same] as QuotableMention)) return;
      kept.splice(same, 1);
    } else if (kept.length >= HIGHLIGHTS_PER_SENTIMENT && !stronger(mention, kept[kept.length - 1] as QuotableMention)) return;
    let at = kept.length;
    while (at > 0 && stronger(mention, kept[at - 1] as QuotableMention)) at -= 1;
    kept.splice(at, 0, mention);
    kept.length = Math.min(kept.length, HIGHLIGHTS_PER_SENTIMENT);
  };
  const picked = () =>
    (['positive', 'negative'] as const).flatMap((sentiment) => best[sentiment].map(({ review, found }) => ({ review_id: review.id, excerpt: found.excerpt, sentiment })));
  return { offer, picked };
}

/** The highlights of these mentions (highlightPicker), in their order. */
export function pickHighlights(mentions: readonly Mention[]): AspectInsight['highlights'] {
  const picker = highlightPicker();
  for (const { review, found } of mentions) picker.offer(review, found);
  return picker.picked();
}
