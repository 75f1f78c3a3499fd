/**
 * The published documents, read once per process from this build's output. They
 * are the single source for every on-demand route (search, sync, MCP), so an
 * answer never disagrees with /reviews.json.
 */
import { readFileSync } from 'node:fs';
import type { ReviewsDataset } from '../../domain/schemas/datasets.ts';
import type { Insights } from '../../domain/schemas/insights.ts';
import { clientFile } from './build-output.ts';

export interface PublishedData {
  dataset: ReviewsDataset;
  insights: Insights;
}

let cached: PublishedData | undefined;

export function getPublishedData(): PublishedData {
  cached ??= {
    dataset: JSON.parse(readFileSync(clientFile('/reviews.json'), 'utf8')) as ReviewsDataset,
    insights: JSON.parse(readFileSync(clientFile('/insights.json'), 'utf8')) as Insights,
  };
  return cached;
}
