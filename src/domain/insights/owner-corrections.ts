/**
 * Owner corrections: a review's front matter may say, per aspect, what the review says
 * about it (`aspects: {workmanship: positive, cleanup: none}`). Those replace the
 * analyzer's labels of that aspect for that review; aspects the owner leaves out keep the
 * analyzer's. Every published label says where it came from (`source`).
 */
import { z } from 'zod';
import { ASPECTS, SENTIMENTS, type ReviewAspect } from '../schemas/review.ts';

type AspectId = (typeof ASPECTS)[number];
type Sentiment = (typeof SENTIMENTS)[number];

/** What an owner may write for an aspect: a sentiment, or `none` for "the review does not talk about it". */
export const OWNER_SENTIMENTS = [...SENTIMENTS, 'none'] as const;
export type OwnerSentiment = (typeof OWNER_SENTIMENTS)[number];
export type AspectCorrections = Partial<Record<AspectId, OwnerSentiment>>;

const isAspect = (key: string): key is AspectId => (ASPECTS as readonly string[]).includes(key);
const isOwnerSentiment = (value: unknown): value is OwnerSentiment => (OWNER_SENTIMENTS as readonly unknown[]).includes(value);

/** The front matter's `aspects:` map, with messages that list what is allowed. */
export const aspectCorrectionsSchema = z
  .record(z.string(), z.unknown(), { error: 'must be lines of "aspect: sentiment" under aspects:, e.g. "workmanship: positive"' })
  .superRefine((map, ctx) => {
    for (const [key, value] of Object.entries(map)) {
      if (!isAspect(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `unknown aspect "${key}"; the aspects are ${ASPECTS.join(', ')}` });
      } else if (!isOwnerSentiment(value)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${JSON.stringify(value ?? null)} is not allowed; write ${OWNER_SENTIMENTS.join(', ')} (none: the review does not talk about it)`,
        });
      }
    }
  })
  .transform((map) => map as AspectCorrections);

/** A label as the analyzer gives it, with its confidence in [0, 1] (see absa/README.md "Confidence"). */
export interface AnalyzedAspect {
  aspect: AspectId;
  sentiment: Sentiment;
  score: number;
  confidence: number;
  excerpt: string;
}

const OWNER_SCORE: Record<Sentiment, number> = { positive: 1, neutral: 0, negative: -1 };

/**
 * The published labels of one review: the analyzer's, except for the aspects the owner
 * corrected, which become one owner label each (after the analyzer's, in aspect order).
 * An owner label quotes the sentence only where the analyzer read that sentence the same
 * way; otherwise its excerpt is null rather than a quote that may say something else.
 */
export function applyOwnerCorrections(analyzed: readonly AnalyzedAspect[], corrections: AspectCorrections | undefined): ReviewAspect[] {
  const kept: ReviewAspect[] = analyzed
    .filter((label) => corrections?.[label.aspect] === undefined)
    .map(({ aspect, sentiment, score, confidence, excerpt }) => ({ aspect, sentiment, score, confidence, excerpt, source: 'analyzer' as const }));
  if (!corrections) return kept;
  for (const aspect of ASPECTS) {
    const sentiment = corrections[aspect];
    if (sentiment === undefined || sentiment === 'none') continue;
    const agreeing = analyzed.find((label) => label.aspect === aspect && label.sentiment === sentiment);
    kept.push({ aspect, sentiment, score: OWNER_SCORE[sentiment], confidence: 1, excerpt: agreeing?.excerpt ?? null, source: 'owner' });
  }
  return kept;
}
