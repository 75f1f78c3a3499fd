import type { ReviewsDataset } from './schemas/datasets.ts';
import type { Site } from './site.ts';

export function reviewsDataset(site: Site): ReviewsDataset {
  return {
    business: site.business,
    aggregate_rating: site.aggregate,
    updated: site.updated,
    reviews: site.reviews,
  };
}

/** The bytes of a JSON document as published: compact, with a final newline. */
export function serializeJson(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
