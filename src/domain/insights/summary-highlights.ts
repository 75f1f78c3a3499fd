/** Short generated statements for the summary: each one a fact drawn from the reviews. */
import type { AggregateRating } from '../aggregate.ts';
import type { AspectInsight, EntityInsight } from '../schemas/insights.ts';
import type { Review } from '../schemas/review.ts';
import { ASPECT_WORDING } from './aspect-labels.ts';

const MIN_MENTIONS = 5;

function pct(part: number, whole: number): number {
  return Math.round((part / whole) * 100);
}

function yearBefore(date: string): string {
  return `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
}

export function summaryHighlights(
  reviews: readonly Review[],
  aggregate: AggregateRating,
  aspects: readonly AspectInsight[],
  technicians: readonly EntityInsight[],
): string[] {
  if (!aggregate.review_count || aggregate.rating_value === null) return [];
  const out = [
    `Rated ${aggregate.rating_value.toFixed(2)} out of 5 from ${aggregate.review_count} verified reviews; ${pct(aggregate.distribution['5'], aggregate.review_count)}% give five stars.`,
  ];
  const frequent = aspects.filter((a) => a.mentions >= MIN_MENTIONS);
  const praised = [...frequent].sort((a, b) => b.score - a.score || b.mentions - a.mentions)[0];
  if (praised && praised.positive > 0) {
    out.push(`Most praised: ${ASPECT_WORDING[praised.aspect].label} (${pct(praised.positive, praised.mentions)}% positive across ${praised.mentions} mentions).`);
  }
  const criticised = [...frequent]
    .filter((a) => a.negative > 0)
    .sort((a, b) => b.negative / b.mentions - a.negative / a.mentions || b.mentions - a.mentions)[0];
  if (criticised) {
    out.push(`Most criticised: ${ASPECT_WORDING[criticised.aspect].label} (${pct(criticised.negative, criticised.mentions)}% negative across ${criticised.mentions} mentions).`);
  }
  const mostNamed = [...technicians].sort((a, b) => b.mentions - a.mentions || (a.name < b.name ? -1 : 1))[0];
  if (mostNamed && mostNamed.mentions > 0) {
    out.push(`Most often named technician: ${mostNamed.name}, in ${mostNamed.mentions} reviews averaging ${mostNamed.average_rating?.toFixed(2)} stars.`);
  }
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
