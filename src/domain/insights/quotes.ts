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

export interface QuotableMention extends Mention {
  found: ReviewAspect & { excerpt: string };
}

export function isQuotable(m: Mention): m is QuotableMention {
  return m.found.excerpt !== null && (m.found.confidence ?? 1) >= QUOTE_MIN_CONFIDENCE;
}

type Polarity = 'positive' | 'negative';

/**
 * The `limit` best of the quotable mentions offered, at most one per review (its best), best first, as sorting
 * them all and keeping the first mention of each review would give; `better` is strict, so among equals the one
 * offered first wins. Offered in order, a review's mentions come together; the few best so far are kept.
 */
export function bestPerReview<M extends QuotableMention>(limit: number, better: (a: M, b: M) => boolean): { offer: (mention: M) => void; kept: readonly M[] } {
  const kept: M[] = [];
  const offer = (mention: M) => {
    const same = kept.findIndex((m) => m.review.id === mention.review.id);
    if (same >= 0) {
      if (!better(mention, kept[same] as M)) return;
      kept.splice(same, 1);
    } else if (kept.length >= limit && (limit <= 0 || !better(mention, kept[kept.length - 1] as M))) return;
    let at = kept.length;
    while (at > 0 && better(mention, kept[at - 1] as M)) at -= 1;
    kept.splice(at, 0, mention);
    if (kept.length > limit) kept.length = limit;
  };
  return { offer, kept };
}

/**
 * The strongest sure quotes of each polarity, one per review, from mentions offered in order; reviews come
 * newest first, so ties go to the newest. An aspect has up to a mention per sentence of every review: too many
 * to sort for two quotes.
 */
export function highlightPicker(): { offer: (review: Review, found: ReviewAspect) => void; picked: () => AspectInsight['highlights'] } {
  const stronger = (a: QuotableMention, b: QuotableMention) => Math.abs(a.found.score) > Math.abs(b.found.score);
  const best = { positive: bestPerReview(HIGHLIGHTS_PER_SENTIMENT, stronger), negative: bestPerReview(HIGHLIGHTS_PER_SENTIMENT, stronger) };
  const offer = (review: Review, found: ReviewAspect) => {
    const mention = { review, found };
    if (found.sentiment !== 'neutral' && isQuotable(mention)) best[found.sentiment].offer(mention);
  };
  const picked = () =>
    (['positive', 'negative'] as const satisfies Polarity[]).flatMap((sentiment) =>
      best[sentiment].kept.map(({ review, found }) => ({ review_id: review.id, excerpt: found.excerpt, sentiment })),
    );
  return { offer, picked };
}

/** The highlights of these mentions (highlightPicker), in their order. */
export function pickHighlights(mentions: readonly Mention[]): AspectInsight['highlights'] {
  const picker = highlightPicker();
  for (const { review, found } of mentions) picker.offer(review, found);
  return picker.picked();
}
