/** `/insights.json`: everything derived from the published reviews, deterministically. */
import type { AspectInsight, EntityInsight, Insights } from '../schemas/insights.ts';
import type { Site } from '../site.ts';
import { analyzerMeasurement } from './analyzer-measurement.ts';
import { evidenceFaq } from './evidence-faq.ts';
import { rankings } from './rankings.ts';
import { tallyReviews, type AspectTally, type Counts, type EntityTally } from './review-tally.ts';
import { summaryHighlights } from './summary-highlights.ts';
import { recurringTopics } from './topics.ts';

const ENTITY_REVIEW_IDS = 20;

function score({ positive, negative, neutral }: Counts): number {
  const total = positive + negative + neutral;
  return total ? Math.round(((positive - negative) / total) * 1000) / 1000 : 0;
}

function aspectInsight({ aspect, totals, quarters, highlights }: AspectTally): AspectInsight {
  return {
    aspect,
    mentions: totals.positive + totals.neutral + totals.negative,
    ...totals,
    score: score(totals),
    trend: [...quarters.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([quarter, counts]) => ({ quarter, mentions: counts.positive + counts.neutral + counts.negative, ...counts, score: score(counts) })),
    highlights,
  };
}

function entityInsight({ id, name, reviews, sentiment }: EntityTally): EntityInsight {
  const sum = reviews.reduce((total, review) => total + review.rating, 0);
  return {
    id,
    name,
    mentions: reviews.length,
    average_rating: reviews.length ? Math.round((sum / reviews.length) * 100) / 100 : null,
    sentiment: { ...sentiment, score: score(sentiment) },
    review_ids: reviews.slice(0, ENTITY_REVIEW_IDS).map((review) => review.id),
  };
}

export function insightsDocument(site: Site): Insights {
  const { business, reviews, aggregate } = site;
  const tally = tallyReviews(business, reviews);
  const aspects = tally.aspects.map(aspectInsight);
  const entities = {
    technicians: tally.technicians.map(entityInsight),
    services: tally.services.map(entityInsight),
    service_areas: tally.service_areas.map(entityInsight),
  };
  const ranked = rankings(aspects, tally);
  const editorial = site.content.faq.map((entry) => ({ ...entry, source: 'editorial' as const, review_ids: [] }));
  return {
    business: { name: business.name, url: business.url },
    generated_from: { review_count: reviews.length, newest_review_date: reviews[0]?.date ?? null },
    aspects,
    entities,
    topics: recurringTopics(reviews),
    faq: [...editorial, ...evidenceFaq({ reviews, techniciansByService: tally.technicians_by_service, aggregate, aspects, entities, rankings: ranked })],
    rankings: ranked,
    analyzer: analyzerMeasurement(),
    summary: { text: site.content.summary, highlights: summaryHighlights(reviews, aggregate, ranked) },
  };
}
