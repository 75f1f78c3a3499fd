/**
 * Honest rankings: aspects, technicians and services ordered by the lower bound of a
 * Wilson score interval on their positive (or negative) share, among those with enough
 * mentions. A raw share puts 3 happy reviews out of 3 above 18 out of 19; the lower
 * bound asks "how high is the share at least, given how few we have seen", so small
 * samples must earn their place. One piece of code: the summary, the FAQ, the insights page
 * and MCP all read these lists from the insights document.
 */
import type { AspectInsight, Insights } from '../schemas/insights.ts';
import type { Review } from '../schemas/review.ts';

/** 95% two-sided: z = 1.96. */
export const RANKING_CONFIDENCE = 0.95;
const Z = 1.96;
/** An aspect is ranked only from this many mentions (labelled sentences) on. */
export const MIN_ASPECT_MENTIONS = 5;
/** A technician or service is ranked only from this many reviews that mention them on. */
export const MIN_ENTITY_REVIEWS = 3;
/** A review counts as happy from this many stars on. */
export const HAPPY_RATING = 4;
const RANK_REVIEW_IDS = 5;

/** Lower bound of the Wilson score interval for `successes` out of `trials` (0 with no trials). */
export function wilsonLowerBound(successes: number, trials: number, z = Z): number {
  if (trials <= 0) return 0;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.max(0, (centre - spread) / (1 + z2 / trials));
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

interface Share {
  share: number;
  lower_bound: number;
}

function shareOf(count: number, total: number): Share {
  return { share: total ? round3(count / total) : 0, lower_bound: round3(wilsonLowerBound(count, total)) };
}

/** Highest lower bound first; then more evidence; then the given key, for a stable order. */
function byLowerBound<T extends Share & { key: string; total: number }>(a: T, b: T): number {
  return b.lower_bound - a.lower_bound || b.total - a.total || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export type AspectRank = Insights['rankings']['most_praised'][number];
export type EntityRank = Insights['rankings']['technicians'][number];

/** Aspects with at least MIN_ASPECT_MENTIONS mentions and one of `sentiment`, best bound first. */
export function rankAspects(aspects: readonly AspectInsight[], sentiment: 'positive' | 'negative'): AspectRank[] {
  return aspects
    .filter((a) => a.mentions >= MIN_ASPECT_MENTIONS && a[sentiment] > 0)
    .map((a) => ({ key: a.aspect, total: a.mentions, aspect: a.aspect, mentions: a.mentions, count: a[sentiment], ...shareOf(a[sentiment], a.mentions) }))
    .sort(byLowerBound)
    .map(({ key: _key, total: _total, ...rank }) => rank);
}

export interface EntityCandidate {
  id: string;
  name: string;
  /** The reviews that mention it, newest first. */
  reviews: readonly Review[];
}

/** Technicians or services with at least MIN_ENTITY_REVIEWS reviews, by the bound on their share of happy reviews. */
export function rankEntities(candidates: readonly EntityCandidate[]): EntityRank[] {
  return candidates
    .filter((c) => c.reviews.length >= MIN_ENTITY_REVIEWS)
    .map((c) => {
      const happy = c.reviews.filter((r) => r.rating >= HAPPY_RATING).length;
      const sum = c.reviews.reduce((total, r) => total + r.rating, 0);
      return {
        key: c.id,
        total: c.reviews.length,
        id: c.id,
        name: c.name,
        reviews: c.reviews.length,
        happy_reviews: happy,
        average_rating: Math.round((sum / c.reviews.length) * 100) / 100,
        ...shareOf(happy, c.reviews.length),
        review_ids: c.reviews.slice(0, RANK_REVIEW_IDS).map((r) => r.id),
      };
    })
    .sort(byLowerBound)
    .map(({ key: _key, total: _total, ...rank }) => rank);
}

/** The rankings, from the aspects' insights and the reviews of each technician and service (review-tally.ts). */
export function rankings(aspects: readonly AspectInsight[], mentioning: { technicians: readonly EntityCandidate[]; services: readonly EntityCandidate[] }): Insights['rankings'] {
  return {
    rule: {
      statistic: 'wilson_lower_bound',
      confidence: RANKING_CONFIDENCE,
      min_aspect_mentions: MIN_ASPECT_MENTIONS,
      min_entity_reviews: MIN_ENTITY_REVIEWS,
      happy_rating: HAPPY_RATING,
    },
    most_praised: rankAspects(aspects, 'positive'),
    most_criticised: rankAspects(aspects, 'negative'),
    technicians: rankEntities(mentioning.technicians),
    services: rankEntities(mentioning.services),
  };
}

/** "at least 75% with 95% confidence" */
export function describeBound(lowerBound: number): string {
  return `at least ${Math.round(lowerBound * 100)}% with ${Math.round(RANKING_CONFIDENCE * 100)}% confidence`;
}

/** "18 of 19 mentions positive; at least 75% with 95% confidence": the words every reader of a ranking sees. */
export function describeShare(count: number, total: number, what: string, lowerBound: number): string {
  return `${count} of ${total} ${what}; ${describeBound(lowerBound)}`;
}

export function describeAspectRank(rank: AspectRank, sentiment: 'positive' | 'negative'): string {
  return describeShare(rank.count, rank.mentions, `mentions ${sentiment}`, rank.lower_bound);
}

export function describeEntityRank(rank: EntityRank): string {
  return `${describeShare(rank.happy_reviews, rank.reviews, `reviews give ${HAPPY_RATING} or 5 stars`, rank.lower_bound)}; ${rank.average_rating.toFixed(2)} average`;
}
