/**
 * The review catalog of the served build, built once per build from its published
 * /reviews.json (see published-data.ts). Search, sync and the MCP tools all read
 * it, so they agree with each other and with the static files.
 */
import { buildReviewCatalog, type ReviewCatalog } from '../../domain/catalog/review-catalog.ts';
import { servedBuild } from './served-build.ts';
import type { LoadedBuild } from './loaded-build.ts';
import { publishedDataOf } from './published-data.ts';

export function catalogOf(build: LoadedBuild): ReviewCatalog {
  return build.memo('review-catalog', () => buildReviewCatalog(publishedDataOf(build).dataset));
}

export function servedCatalog(): ReviewCatalog {
  return catalogOf(servedBuild());
}
