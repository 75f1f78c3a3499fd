/**
 * The published documents of the served build, parsed once per build. They are the
 * single source for every on-demand route (search, sync, MCP), so an answer never
 * disagrees with /reviews.json.
 */
import type { ReviewsDataset } from '../../domain/schemas/datasets.ts';
import type { Insights } from '../../domain/schemas/insights.ts';
import { servedBuild } from './served-build.ts';
import type { LoadedBuild } from './loaded-build.ts';

export interface PublishedData {
  dataset: ReviewsDataset;
  insights: Insights;
}

export function publishedDataOf(build: LoadedBuild): PublishedData {
  return build.memo('published-data', () => ({
    dataset: JSON.parse(build.text('/reviews.json')) as ReviewsDataset,
    insights: JSON.parse(build.text('/insights.json')) as Insights,
  }));
}

export function getPublishedData(): PublishedData {
  return publishedDataOf(servedBuild());
}
