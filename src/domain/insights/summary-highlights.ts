/** Short generated statements for the summary: each one a fact drawn from the reviews. */
import type { AggregateRating } from '../aggregate.ts';
import type { Insights } from '../schemas/insights.ts';
import type { Review } from '../schemas/review.ts';
import { ASPECT_WORDING } from './aspect-labels.ts';
import { describeAspectRank, describeEntityRank } from './rankings.ts';

function pct(part: number, whole: number): number {
  return Math.round((part / whole) * 100);
}

function yearBefore(date: string): string {
  return `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
}

export function summaryHighlights(
  reviews: readonly Review[],
  aggregate: AggregateRating,
  rankings: Insights['rankings'],
): string[] {
  if (!aggregate.review_count || aggregate.rating_value === null) return [];
  const out = [
    `Rated ${aggregate.rating_value.toFixed(2)} out of 5 from ${aggregate.review_count} verified reviews; ${pct(aggregate.distribution['5'], aggregate.review_count)}% give five stars.`,
  ];
  const [praised] = rankings.most_praised;
  if (praised) out.push(`Most praised: ${ASPECT_WORDING[praised.aspect].label} (${describeAspectRank(praised, 'positive')}).`);
  const [criticised] = rankings.most_criticised;
  if (criticised) out.push(`Most criticised: ${ASPECT_WORDING[criticised.aspect].label} (${describeAspectRank(criticised, 'negative')}).`);
  const [technician] = rankings.technicians;
  if (technician) out.push(`Best reviewed technician: ${technician.name} (${describeEntityRank(technician)}).`);
  const newest = reviews[0]?.date;
  if (newest) {
    // The last twelve months before the newest review: from the content, never the clock.
    const recent = reviews.filter((r) => r.date > yearBefore(newest));
    if (recent.length >= 3 && recent.length < reviews.length) {
      const mean = recent.reduce((s, r) => s + r.rating, 0) / recent.length;
      out.push(`In the twelve months to ${newest}: ${recent.length} reviews averaging ${mean.toFixed(2)} stars.`);
    }
  }
  return out;
}
