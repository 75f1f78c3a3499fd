import type { AspectInsight, EntityInsight, Insights } from '../schemas/insights.ts';
import { ASPECTS, type Review } from '../schemas/review.ts';
import type { Site } from '../site.ts';

type Counts = { positive: number; neutral: number; negative: number };

function score({ positive, negative, neutral }: Counts): number {
  const total = positive + negative + neutral;
  return total ? Math.round(((positive - negative) / total) * 1000) / 1000 : 0;
}

function quarterOf(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
}

function aspectInsights(reviews: readonly Review[]): AspectInsight[] {
  return ASPECTS.map((aspect) => {
    const totals: Counts = { positive: 0, neutral: 0, negative: 0 };
    const quarters = new Map<string, Counts>();
    const highlights: AspectInsight['highlights'] = [];
    for (const review of reviews) {
      for (const found of review.aspects) {
        if (found.aspect !== aspect) continue;
        totals[found.sentiment] += 1;
        const quarter = quarterOf(review.date);
        const counts = quarters.get(quarter) ?? { positive: 0, neutral: 0, negative: 0 };
        counts[found.sentiment] += 1;
        quarters.set(quarter, counts);
        if (found.sentiment !== 'neutral' && highlights.length < 3) {
          highlights.push({ review_id: review.id, excerpt: found.excerpt, sentiment: found.sentiment });
        }
      }
    }
    return {
      aspect,
      mentions: totals.positive + totals.neutral + totals.negative,
      ...totals,
      score: score(totals),
      trend: [...quarters.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([quarter, counts]) => ({
          quarter,
          mentions: counts.positive + counts.neutral + counts.negative,
          ...counts,
          score: score(counts),
        })),
      highlights,
    };
  });
}

function entityInsight(id: string, name: string, reviews: readonly Review[]): EntityInsight {
  const counts: Counts = { positive: 0, neutral: 0, negative: 0 };
  for (const review of reviews) {
    for (const found of review.aspects) counts[found.sentiment] += 1;
  }
  const sum = reviews.reduce((total, review) => total + review.rating, 0);
  return {
    id,
    name,
    mentions: reviews.length,
    average_rating: reviews.length ? Math.round((sum / reviews.length) * 100) / 100 : null,
    sentiment: { ...counts, score: score(counts) },
    review_ids: reviews.slice(0, 20).map((review) => review.id),
  };
}

/** The insights document; `site.reviews` is newest first, so highlights are the newest quotes. */
export function insightsDocument(site: Site): Insights {
  const { business, reviews } = site;
  return {
    business: { name: business.name, url: business.url },
    generated_from: { review_count: reviews.length, newest_review_date: reviews[0]?.date ?? null },
    aspects: aspectInsights(reviews),
    entities: {
      technicians: business.technicians.map((t) =>
        entityInsight(t.id, t.name, reviews.filter((r) => r.technicians.some((x) => x.id === t.id))),
      ),
      services: business.services.map((s) =>
        entityInsight(s.id, s.name, reviews.filter((r) => r.services.some((x) => x.id === s.id))),
      ),
      service_areas: business.service_areas.map((a) =>
        entityInsight(a.id, a.name, reviews.filter((r) => r.service_area?.id === a.id)),
      ),
    },
    topics: [],
    faq: site.content.faq.map((entry) => ({ ...entry, source: 'editorial' as const, review_ids: [] })),
    summary: { text: site.content.summary, highlights: [] },
  };
}
