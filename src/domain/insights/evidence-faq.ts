/**
 * Questions a customer (or an agent) asks, answered from the reviews themselves, each
 * with the ids of the reviews that back the answer.
 */
import type { AggregateRating } from '../aggregate.ts';
import type { AspectInsight, EntityInsight, Insights } from '../schemas/insights.ts';
import type { Review } from '../schemas/review.ts';
import { ASPECT_WORDING } from './aspect-labels.ts';
import {
  describeAspectRank,
  describeBound,
  describeEntityRank,
  MIN_ASPECT_MENTIONS,
  rankEntities,
  wilsonLowerBound,
  type AspectRank,
  type EntityCandidate,
  type EntityRank,
} from './rankings.ts';

type FaqEntry = Insights['faq'][number];

function percent(part: number, whole: number): number {
  return whole ? Math.round((part / whole) * 100) : 0;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function stars(value: number | null): string {
  return value === null ? 'no rating' : `${value.toFixed(2)} out of 5`;
}

function overall(aggregate: AggregateRating, reviews: readonly Review[]): FaqEntry | undefined {
  if (!aggregate.review_count) return undefined;
  const happy = aggregate.distribution['4'] + aggregate.distribution['5'];
  return {
    question: 'What do customers think overall?',
    answer: `${aggregate.review_count} verified reviews give an average of ${stars(aggregate.rating_value)}; ${percent(happy, aggregate.review_count)}% give 4 or 5 stars.`,
    source: 'reviews',
    review_ids: reviews.slice(0, 5).map((r) => r.id),
  };
}

function aspectAnswer(insight: AspectInsight): FaqEntry | undefined {
  if (insight.mentions < MIN_ASPECT_MENTIONS) return undefined;
  const wording = ASPECT_WORDING[insight.aspect];
  const parts = [
    `Reviews mention ${wording.label} ${insight.mentions} times: ${insight.positive} positive, ${insight.negative} negative and ${insight.neutral} neutral (${percent(insight.positive, insight.mentions)}% positive; ${describeBound(wilsonLowerBound(insight.positive, insight.mentions))}).`,
  ];
  const praise = insight.highlights.find((h) => h.sentiment === 'positive');
  const complaint = insight.highlights.find((h) => h.sentiment === 'negative');
  if (praise) parts.push(`One customer wrote: "${praise.excerpt}"`);
  if (complaint) parts.push(`A less happy one: "${complaint.excerpt}"`);
  return {
    question: wording.question,
    answer: parts.join(' '),
    source: 'reviews',
    review_ids: [...new Set(insight.highlights.map((h) => h.review_id))],
  };
}

function describe(entity: EntityInsight): string {
  return `${entity.name} (${stars(entity.average_rating)}, ${entity.mentions} reviews)`;
}

const describeRanked = (rank: EntityRank) => `${rank.name} (${describeEntityRank(rank)})`;

/** The top of an aspect ranking and the next two, with a sure quote of the top one when there is one. */
function mostOf(ranked: readonly AspectRank[], aspects: readonly AspectInsight[], sentiment: 'positive' | 'negative'): FaqEntry | undefined {
  const [top, ...rest] = ranked;
  if (!top) return undefined;
  const describeAspect = (rank: AspectRank) => `${ASPECT_WORDING[rank.aspect].label} (${describeAspectRank(rank, sentiment)})`;
  const quote = aspects.find((a) => a.aspect === top.aspect)?.highlights.find((h) => h.sentiment === sentiment);
  const next = rest.slice(0, 2).map(describeAspect);
  return {
    question: sentiment === 'positive' ? 'What do customers praise most?' : 'What do customers criticise most?',
    answer: `${capitalised(describeAspect(top))}${next.length ? `, then ${next.join(', ')}` : ''}.${quote ? ` One customer wrote: "${quote.excerpt}"` : ''}`,
    source: 'reviews',
    review_ids: quote ? [quote.review_id] : [],
  };
}

function best(question: string, ranked: readonly EntityRank[]): FaqEntry | undefined {
  const [first, ...rest] = ranked;
  if (!first) return undefined;
  return {
    question,
    answer: `${describeRanked(first)}${rest.length ? `, then ${rest.map(describeRanked).join(', ')}` : ''}.`,
    source: 'reviews',
    review_ids: first.review_ids,
  };
}

/** For each service, the technicians named in reviews of that service, ranked as technicians are overall. */
function bestTechnicianPerService(services: EvidenceInput['techniciansByService']): FaqEntry[] {
  const entries: FaqEntry[] = [];
  for (const service of services) {
    const [best, ...rest] = rankEntities(service.technicians);
    if (!best) continue;
    const name = service.name.toLowerCase();
    entries.push({
      question: `Which technician gets the best reviews for ${name}?`,
      answer: `Among the reviews of ${name} that name a technician: ${describeRanked(best)}${rest.length ? `, then ${rest.map(describeRanked).join(', ')}` : ''}.`,
      source: 'reviews',
      review_ids: best.review_ids,
    });
  }
  return entries;
}

function serviceAreas(areas: readonly EntityInsight[]): FaqEntry | undefined {
  if (!areas.length) return undefined;
  const withReviews = areas.filter((a) => a.mentions > 0);
  return {
    question: 'Which areas do they serve?',
    answer: `${areas.map((a) => a.name).join('; ')}.${withReviews.length ? ` Reviews by area: ${withReviews.map(describe).join('; ')}.` : ''}`,
    source: 'reviews',
    review_ids: [],
  };
}

export interface EvidenceInput {
  reviews: readonly Review[];
  /** Per service, its technicians with the reviews of the service that name them (review-tally.ts). */
  techniciansByService: readonly { name: string; technicians: readonly EntityCandidate[] }[];
  aggregate: AggregateRating;
  aspects: readonly AspectInsight[];
  entities: Insights['entities'];
  rankings: Insights['rankings'];
}

export function evidenceFaq({ reviews, techniciansByService, aggregate, aspects, entities, rankings }: EvidenceInput): FaqEntry[] {
  return [
    overall(aggregate, reviews),
    mostOf(rankings.most_praised, aspects, 'positive'),
    mostOf(rankings.most_criticised, aspects, 'negative'),
    best('Which technician gets the best reviews?', rankings.technicians),
    best('Which services get the best reviews?', rankings.services),
    ...bestTechnicianPerService(techniciansByService),
    ...aspects.map(aspectAnswer),
    serviceAreas(entities.service_areas),
  ].filter((entry): entry is FaqEntry => entry !== undefined);
}
