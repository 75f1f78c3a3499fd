/** `/insights.json`: everything derived from the published reviews, deterministically. */
import type { AspectInsight, EntityInsight, Insights } from '../schemas/insights.ts';
import { ASPECTS, type Review } from '../schemas/review.ts';
import type { Site } from '../site.ts';
import { analyzerMeasurement } from './analyzer-measurement.ts';
import { evidenceFaq } from './evidence-faq.ts';
import { pickHighlights, type Mention } from './quotes.ts';
import { mentioningReviews, rankings, type EntityCandidate } from './rankings.ts';
import { summaryHighlights } from './summary-highlights.ts';
import { recurringTopics } from './topics.ts';

type Counts = { positive: number; neutral: number; negative: number };

const ENTITY_REVIEW_IDS = 20;

function emptyCounts(): Counts {
  return { positive: 0, neutral: 0, negative: 0 };
}

function score({ positive, negative, neutral }: Counts): number {
  const total = positive + negative + neutral;
  return total ? Math.round(((positive - negative) / total) * 1000) / 1000 : 0;
}

function quarterOf(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
}

interface AspectTally {
  totals: Counts;
  quarters: Map<string, Counts>;
  mentions: Mention[];
}

/** Every aspect's counts, trend and quotes, from one pass over the reviews. */
function aspectInsights(reviews: readonly Review[]): AspectInsight[] {
  const tallies = new Map<string, AspectTally>(ASPECTS.map((aspect) => [aspect, { totals: emptyCounts(), quarters: new Map(), mentions: [] }]));
  for (const review of reviews) {
    if (!review.aspects.length) continue;
    const quarter = quarterOf(review.date);
    for (const found of review.aspects) {
      const tally = tallies.get(found.aspect);
      if (!tally) continue;
      tally.totals[found.sentiment] += 1;
      let counts = tally.quarters.get(quarter);
      if (!counts) tally.quarters.set(quarter, (counts = emptyCounts()));
      counts[found.sentiment] += 1;
      tally.mentions.push({ review, found });
    }
  }
  return ASPECTS.map((aspect) => {
    const { totals, quarters, mentions } = tallies.get(aspect) as AspectTally;
    return {
      aspect,
      mentions: mentions.length,
      ...totals,
      score: score(totals),
      trend: [...quarters.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([quarter, counts]) => ({ quarter, mentions: counts.positive + counts.neutral + counts.negative, ...counts, score: score(counts) })),
      highlights: pickHighlights(mentions),
    };
  });
}

function entityInsight({ id, name, reviews }: EntityCandidate): EntityInsight {
  const counts = emptyCounts();
  for (const review of reviews) for (const found of review.aspects) counts[found.sentiment] += 1;
  const sum = reviews.reduce((total, review) => total + review.rating, 0);
  return {
    id,
    name,
    mentions: reviews.length,
    average_rating: reviews.length ? Math.round((sum / reviews.length) * 100) / 100 : null,
    sentiment: { ...counts, score: score(counts) },
    review_ids: reviews.slice(0, ENTITY_REVIEW_IDS).map((review) => review.id),
  };
}

export function insightsDocument(site: Site): Insights {
  const { business, reviews, aggregate } = site;
  const aspects = aspectInsights(reviews);
  // The reviews of each technician and service, found once: the entities, the rankings and the FAQ read them.
  const mentioning = {
    technicians: mentioningReviews(business.technicians, reviews, (r) => r.technicians),
    services: mentioningReviews(business.services, reviews, (r) => r.services),
  };
  const entities = {
    technicians: mentioning.technicians.map(entityInsight),
    services: mentioning.services.map(entityInsight),
    service_areas: mentioningReviews(business.service_areas, reviews, (r) => (r.service_area ? [r.service_area] : [])).map(entityInsight),
  };
  const ranked = rankings(aspects, mentioning);
  const editorial = site.content.faq.map((entry) => ({ ...entry, source: 'editorial' as const, review_ids: [] }));
  return {
    business: { name: business.name, url: business.url },
    generated_from: { review_count: reviews.length, newest_review_date: reviews[0]?.date ?? null },
    aspects,
    entities,
    topics: recurringTopics(reviews),
    faq: [...editorial, ...evidenceFaq({ reviews, aggregate, aspects, entities, rankings: ranked })],
    rankings: ranked,
    analyzer: analyzerMeasurement(),
    summary: { text: site.content.summary, highlights: summaryHighlights(reviews, aggregate, ranked) },
  };
}
