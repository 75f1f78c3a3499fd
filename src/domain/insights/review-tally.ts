/**
 * What the insights count, from one pass over the reviews: at 100,000 reviews each pass
 * costs tens of milliseconds (a review's labels and names are scattered in memory), so
 * the aspects' tallies and quotes and the reviews and label counts of each technician,
 * service and area are gathered together.
 */
import type { AspectId } from '../schemas/aspects.ts';
import type { AspectInsight } from '../schemas/insights.ts';
import { ASPECTS, type Review } from '../schemas/review.ts';
import { highlightPicker } from './quotes.ts';
import type { EntityCandidate } from './rankings.ts';

export type Counts = { positive: number; neutral: number; negative: number };

export function emptyCounts(): Counts {
  return { positive: 0, neutral: 0, negative: 0 };
}

export interface AspectTally {
  aspect: AspectId;
  /** Labels of the aspect, by sentiment. */
  totals: Counts;
  /** The same by quarter ("2024-Q1"), in no order. */
  quarters: Map<string, Counts>;
  highlights: AspectInsight['highlights'];
}

/** A technician, service or area with the reviews that name it (newest first) and the sentiments of their labels. */
export interface EntityTally extends EntityCandidate {
  reviews: Review[];
  sentiment: Counts;
}

export interface ReviewTally {
  aspects: AspectTally[];
  technicians: EntityTally[];
  services: EntityTally[];
  service_areas: EntityTally[];
  /** Per service (in the business's order), its technicians with the reviews of the service that name them. */
  technicians_by_service: { name: string; technicians: EntityTally[] }[];
}

type Named = readonly { id: string; name: string }[];

function quarterOf(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
}

/** Entities by id, each tallied once per review that names it, however often; an id listed twice gets the same tally twice. */
function entityTallies(entities: Named): { add: (id: string, review: Review, counts: Counts) => boolean; list: () => EntityTally[] } {
  const byId = new Map<string, { reviews: Review[]; sentiment: Counts }>();
  for (const { id } of entities) if (!byId.has(id)) byId.set(id, { reviews: [], sentiment: emptyCounts() });
  const add = (id: string, review: Review, counts: Counts) => {
    const tally = byId.get(id);
    if (!tally || tally.reviews[tally.reviews.length - 1] === review) return false;
    tally.reviews.push(review);
    tally.sentiment.positive += counts.positive;
    tally.sentiment.neutral += counts.neutral;
    tally.sentiment.negative += counts.negative;
    return true;
  };
  const list = () => entities.map(({ id, name }) => ({ id, name, ...(byId.get(id) as { reviews: Review[]; sentiment: Counts }) }));
  return { add, list };
}

export function tallyReviews(business: { technicians: Named; services: Named; service_areas: Named }, reviews: readonly Review[]): ReviewTally {
  const aspects = new Map(ASPECTS.map((aspect) => [aspect, { aspect, totals: emptyCounts(), quarters: new Map<string, Counts>(), picker: highlightPicker() }]));
  const technicians = entityTallies(business.technicians);
  const services = entityTallies(business.services);
  const areas = entityTallies(business.service_areas);
  const techniciansByService = new Map(business.services.map(({ id }) => [id, entityTallies(business.technicians)]));
  for (const review of reviews) {
    const counts = emptyCounts();
    if (review.aspects.length) {
      const quarter = quarterOf(review.date);
      for (const found of review.aspects) {
        const { sentiment } = found;
        counts[sentiment] += 1;
        const tally = aspects.get(found.aspect);
        if (!tally) continue;
        tally.totals[sentiment] += 1;
        let byQuarter = tally.quarters.get(quarter);
        if (!byQuarter) tally.quarters.set(quarter, (byQuarter = emptyCounts()));
        byQuarter[sentiment] += 1;
        tally.picker.offer(review, found);
      }
    }
    for (const { id } of review.technicians) technicians.add(id, review, counts);
    for (const { id } of review.services) {
      if (!services.add(id, review, counts)) continue;
      const ofService = techniciansByService.get(id);
      for (const { id: technician } of review.technicians) ofService?.add(technician, review, counts);
    }
    if (review.service_area) areas.add(review.service_area.id, review, counts);
  }
  return {
    aspects: [...aspects.values()].map(({ picker, ...tally }) => ({ ...tally, highlights: picker.picked() })),
    technicians: technicians.list(),
    services: services.list(),
    service_areas: areas.list(),
    technicians_by_service: business.services.map(({ name, id }) => ({ name, technicians: techniciansByService.get(id)?.list() ?? [] })),
  };
}
