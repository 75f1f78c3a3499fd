/**
 * The published documents of the served build that the on-demand routes read
 * besides the review catalog (served-catalog.ts), parsed once per build, so an
 * answer never disagrees with the static files.
 */
import type { Insights } from '../../domain/schemas/insights.ts';
import type { LoadedBuild } from './loaded-build.ts';

export interface PublishedData {
  insights: Insights;
}

export function publishedDataOf(build: LoadedBuild): PublishedData {
  return build.memo('published-data', () => ({ insights: JSON.parse(build.text('/insights.json')) as Insights }));
}
