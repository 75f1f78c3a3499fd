/**
 * The review catalog of this build, built once per process from the published
 * /reviews.json (see published-data.ts) on first use. Search, sync and the MCP
 * tools all read it, so they agree with each other and with the static files.
 */
import { buildReviewCatalog, type ReviewCatalog } from '../../domain/catalog/catalog.ts';
import { getPublishedData } from './published-data.ts';

// The server (run from source) and Astro's bundle each hold a copy of this
// module; one slot per process keeps a single catalog in memory for both.
const SLOT = Symbol.for('reviews-service.review-catalog');
type Slot = { [SLOT]?: ReviewCatalog };

export function getCatalog(): ReviewCatalog {
  const slot = globalThis as Slot;
  slot[SLOT] ??= buildReviewCatalog(getPublishedData().dataset);
  return slot[SLOT];
}
