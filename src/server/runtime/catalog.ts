/**
 * The review catalog of this build, built once per process from the published
 * /reviews.json (see published-data.ts) on first use. Search, sync and the MCP
 * tools all read it, so they agree with each other and with the static files.
 */
import { buildReviewCatalog, type ReviewCatalog } from '../../domain/catalog/catalog.ts';
import { getPublishedData } from './published-data.ts';

let cached: ReviewCatalog | undefined;

export function getCatalog(): ReviewCatalog {
  cached ??= buildReviewCatalog(getPublishedData().dataset);
  return cached;
}
