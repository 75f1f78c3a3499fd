/**
 * Questions a customer (or an agent) asks, answered from the reviews themselves, each
 * with the ids of the reviews that back the answer.
 */
import type { AggregateRating } from '../aggregate.ts';
import type { AspectInsight, EntityInsight, Insights } from '../schemas/insights.ts';
import type { Review } from '../schemas/review.ts';
import { ASPECT_WORDING } from './aspect-labels.ts';

type FaqEntry = Insights['faq'][number];

const MIN_ASPECT_MENTIONS = 3;
const MIN_ENTITY_REVIEWS = 2;

function percent(part: number, whole: number): number {
  return whole ? Math.round((part / whole) * 100) : 0;
}

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
    `Reviews mention ${wording.label} ${insight.mentions} times: ${insight.positive} positive, ${insight.negative} negative and ${insight.neutral} neutral (${percent(insight.positive, insight.mentions)}% positive).`,
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

function ranked(entities: readonly EntityInsight[]): EntityInsight[] {
  return entities
    .filter((e) => e.mentions >= MIN_ENTITY_REVIEWS && e.average_rating !== null)
    .sort((a, b) => (b.average_rating ?? 0) - (a.average_rating ?? 0) || b.mentions - a.mentions || (a.name < b.name ? -1 : 1));
}

function describe(entity: EntityInsight): string {
  return `${entity.name} (${stars(entity.average_rating)}, ${entity.mentions} reviews)`;
}

function bestTechnician(technicians: readonly EntityInsight[]): FaqEntry | undefined {
  const [best, ...rest] = ranked(technicians);
  if (!best) return undefined;
  return {
    question: 'Which technician gets the best reviews?',
    answer: `${describe(best)}${rest.length ? `, then ${rest.map(describe).join(', ')}` : ''}.`,
    source: 'reviews',
    review_ids: best.review_ids.slice(0, 5),
  };
}

/** For each service, the technicians named in reviews of that service, best rated first. */
function bestTechnicianPerService(reviews: readonly Review[], services: readonly EntityInsight[]): FaqEntry[] {
  const entries: FaqEntry[] = [];
  for (const service of services) {
    const byTechnician = new Map<string, { name: string; ratings: number[]; ids: string[] }>();
    for (const review of reviews) {
      if (!review.services.some((s) => s.id === service.id)) continue;
      for (const technician of review.technicians) {
        const entry = byTechnician.get(technician.id) ?? { name: technician.name, ratings: [], ids: [] };
        entry.ratings.push(review.rating);
        entry.ids.push(review.id);
        byTechnician.set(technician.id, entry);
      }
    }
    const candidates = [...byTechnician.entries()]
      .map(([id, e]) => ({
        id,
        name: e.name,
        mentions: e.ratings.length,
        average_rating: Math.round((e.ratings.reduce((s, r) => s + r, 0) / e.ratings.length) * 100) / 100,
        review_ids: e.ids,
      }))
      .filter((c) => c.mentions >= MIN_ENTITY_REVIEWS)
      .sort((a, b) => b.average_rating - a.average_rating || b.mentions - a.mentions || (a.name < b.name ? -1 : 1));
    const [best, ...rest] = candidates;
    if (!best) continue;
    const others = rest.map((c) => `${c.name} (${stars(c.average_rating)}, ${c.mentions} reviews)`);
    entries.push({
      question: `Which technician gets the best reviews for ${service.name.toLowerCase()}?`,
      answer: `${best.name}: ${stars(best.average_rating)} over ${best.mentions} reviews of ${service.name.toLowerCase()} that name them${others.length ? `; then ${others.join(', ')}` : ''}.`,
      source: 'reviews',
      review_ids: best.review_ids.slice(0, 5),
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
  aggregate: AggregateRating;
  aspects: readonly AspectInsight[];
  entities: Insights['entities'];
}

export function evidenceFaq({ reviews, aggregate, aspects, entities }: EvidenceInput): FaqEntry[] {
  return [
    overall(aggregate, reviews),
    bestTechnician(entities.technicians),
    ...bestTechnicianPerService(reviews, entities.services),
    ...aspects.map(aspectAnswer),
    serviceAreas(entities.service_areas),
  ].filter((entry): entry is FaqEntry => entry !== undefined);
}
