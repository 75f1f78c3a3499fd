/** `/insights.json`: everything derived from the published reviews, deterministically. */
import type { AspectInsight, EntityInsight, Insights } from '../schemas/insights.ts';
import { ASPECTS, type Review, type ReviewAspect } from '../schemas/review.ts';
import type { Site } from '../site.ts';
import { evidenceFaq } from './evidence-faq.ts';
import { summaryHighlights } from './summary-highlights.ts';
import { recurringTopics } from './topics.ts';

type Counts = { positive: number; neutral: number; negative: number };

const HIGHLIGHTS_PER_SENTIMENT = 2;
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

interface Mention {
  review: Review;
  found: ReviewAspect;
}

interface QuotableMention extends Mention {
  found: ReviewAspect & { excerpt: string };
}

const isQuotable = (m: Mention): m is QuotableMention => m.found.excerpt !== null;

/** The strongest quotes of each polarity; reviews come newest first, so ties go to the newest. */
function pickHighlights(mentions: Mention[]): AspectInsight['highlights'] {
  const picked: AspectInsight['highlights'] = [];
  for (const sentiment of ['positive', 'negative'] as const) {
    const seen = new Set<string>();
    const candidates = mentions
      .filter(isQuotable)
      .filter((m) => m.found.sentiment === sentiment)
      .map((m, order) => ({ ...m, order }))
      .sort((a, b) => Math.abs(b.found.score) - Math.abs(a.found.score) || a.order - b.order);
    for (const { review, found } of candidates) {
      if (seen.has(review.id) || seen.size >= HIGHLIGHTS_PER_SENTIMENT) continue;
      seen.add(review.id);
      picked.push({ review_id: review.id, excerpt: found.excerpt, sentiment });
    }
  }
  return picked;
}

function aspectInsights(reviews: readonly Review[]): AspectInsight[] {
  return ASPECTS.map((aspect) => {
    const totals = emptyCounts();
    const quarters = new Map<string, Counts>();
    const mentions: Mention[] = [];
    for (const review of reviews) {
      for (const found of review.aspects) {
        if (found.aspect !== aspect) continue;
        totals[found.sentiment] += 1;
        const quarter = quarterOf(review.date);
        const counts = quarters.get(quarter) ?? emptyCounts();
        counts[found.sentiment] += 1;
        quarters.set(quarter, counts);
        mentions.push({ review, found });
      }
    }
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

function entityInsight(id: string, name: string, reviews: readonly Review[]): EntityInsight {
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

function entityInsights(site: Site): Insights['entities'] {
  const { business, reviews } = site;
  const mentioning = (pick: (r: Review) => readonly { id: string }[], id: string) =>
    reviews.filter((r) => pick(r).some((x) => x.id === id));
  return {
    technicians: business.technicians.map((t) => entityInsight(t.id, t.name, mentioning((r) => r.technicians, t.id))),
    services: business.services.map((s) => entityInsight(s.id, s.name, mentioning((r) => r.services, s.id))),
    service_areas: business.service_areas.map((a) =>
      entityInsight(a.id, a.name, mentioning((r) => (r.service_area ? [r.service_area] : []), a.id)),
    ),
  };
}

export function insightsDocument(site: Site): Insights {
  const { business, reviews, aggregate } = site;
  const aspects = aspectInsights(reviews);
  const entities = entityInsights(site);
  const editorial = site.content.faq.map((entry) => ({ ...entry, source: 'editorial' as const, review_ids: [] }));
  return {
    business: { name: business.name, url: business.url },
    generated_from: { review_count: reviews.length, newest_review_date: reviews[0]?.date ?? null },
    aspects,
    entities,
    topics: recurringTopics(reviews),
    faq: [...editorial, ...evidenceFaq({ reviews, aggregate, aspects, entities })],
    summary: { text: site.content.summary, highlights: summaryHighlights(reviews, aggregate, aspects, entities.technicians) },
  };
}
