/**
 * Search over the review catalog: the one implementation behind
 * `GET /api/reviews/search` and the MCP tool `search_reviews`.
 *
 * How to call it (both callers do the same three steps):
 *
 *   const catalog = getCatalog();                        // src/server/runtime/catalog.ts, built once per process
 *   const parsed = parseSearchArguments(catalog, args);  // MCP arguments; HTTP uses parseSearchParams(catalog, url.searchParams)
 *   if (!parsed.ok) → parsed.issues: [{ path, code, message }], the 400's issues / the tool error's text
 *   const result = searchReviews(catalog, parsed.value);
 *   result.response  → { total, count, offset, limit, reviews }: the body as an object (MCP structuredContent)
 *   result.json()    → the same body as JSON text plus "\n" (the HTTP body, the MCP text copy), joined
 *                      from each review's pre-serialised JSON rather than stringified again
 *
 * Semantics: filters combine with AND; reviews come newest first (date
 * descending, then id ascending); `total` counts every match, `reviews` holds
 * `limit` of them from `offset` on. `query` is a case- and accent-insensitive
 * substring of title or text; `mentions_technician` an id, name or alias of a
 * technician (one nobody has matches nothing); `mentions_service` a service id,
 * already checked and made canonical by the parse step. The query schema and the
 * response schema are in src/domain/schemas/search.ts (`searchQuerySchema`,
 * `searchResponseSchema`).
 *
 * Work per request: a date range is a binary search; ratings, technicians and
 * services are prepared position lists; text goes through a word index. The
 * smallest of these lists drives, the other filters are tested on its members.
 */
import type { SearchQuery, SearchResponse } from '../schemas/search.ts';
import type { Review } from '../schemas/review.ts';
import { normalizeName, reviewsJsonArray, type ReviewCatalog } from './catalog.ts';
import { matchText } from './text-index.ts';

export interface SearchResult {
  readonly response: SearchResponse;
  json(): string;
}

/** A filter: the positions it allows (a list or a range), and a test of one position. */
interface Filter {
  readonly size: number;
  readonly list?: Int32Array;
  readonly range?: readonly [number, number];
  /** Whether being in `list`/`range` already passes `test`. */
  readonly exact: boolean;
  test(position: number): boolean;
}

/** First index in dates (descending) whose date is before `day`: [0, result) are on or after it. */
function endOfOnOrAfter(dates: readonly string[], day: string): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((dates[mid] as string) >= day) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** First index in dates (descending) whose date is on or before `day`. */
function startOfOnOrBefore(dates: readonly string[], day: string): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((dates[mid] as string) > day) low = mid + 1;
    else high = mid;
  }
  return low;
}

function listFilter(list: Int32Array, test: (position: number) => boolean): Filter {
  return { size: list.length, list, exact: true, test };
}

function unionOfSorted(lists: readonly Int32Array[]): Int32Array {
  const all = new Set<number>();
  for (const list of lists) for (const position of list) all.add(position);
  return Int32Array.from(all).sort();
}

function filtersOf(catalog: ReviewCatalog, query: SearchQuery): Filter[] {
  const { index, reviews } = catalog;
  const filters: Filter[] = [];
  if (query.since !== undefined || query.until !== undefined) {
    const low = query.until === undefined ? 0 : startOfOnOrBefore(index.dates, query.until);
    const high = query.since === undefined ? index.dates.length : endOfOnOrAfter(index.dates, query.since);
    filters.push({ size: Math.max(0, high - low), range: [low, high], exact: true, test: (p) => p >= low && p < high });
  }
  if (query.rating !== undefined) {
    const rating = query.rating;
    filters.push(listFilter(index.byRating[rating] as Int32Array, (p) => index.ratings[p] === rating));
  }
  if (query.min_rating !== undefined) {
    const least = Math.ceil(query.min_rating);
    filters.push(listFilter(index.atLeastRating[least] as Int32Array, (p) => (index.ratings[p] as number) >= least));
  }
  if (query.mentions_technician !== undefined) {
    const ids = index.technicianNames.get(normalizeName(query.mentions_technician)) ?? [];
    const lists = ids.map((id) => index.byTechnician.get(id) ?? new Int32Array(0));
    const list = lists.length === 1 ? (lists[0] as Int32Array) : unionOfSorted(lists);
    filters.push(listFilter(list, (p) => (reviews[p] as Review).technicians.some((t) => ids.includes(t.id))));
  }
  if (query.mentions_service !== undefined) {
    const id = query.mentions_service;
    const list = index.byService.get(id) ?? new Int32Array(0);
    filters.push(listFilter(list, (p) => (reviews[p] as Review).services.some((s) => s.id === id)));
  }
  if (query.query !== undefined) {
    const match = matchText(index.text, query.query);
    const test = (p: number) => (index.text.texts[p] as string).includes(match.needle);
    filters.push(
      match.candidates
        ? { size: match.candidates.length, list: match.candidates, exact: match.exact, test }
        : { size: reviews.length, range: [0, reviews.length], exact: false, test },
    );
  }
  return filters;
}

/** Every match counted, the page's positions collected, in newest-first order. */
function run(catalog: ReviewCatalog, query: SearchQuery): { total: number; page: Int32Array } {
  const { offset, limit } = query;
  const filters = filtersOf(catalog, query);
  if (filters.length === 0) filters.push({ size: catalog.reviews.length, range: [0, catalog.reviews.length], exact: true, test: () => true });
  const driver = filters.reduce((best, filter) => (filter.size < best.size || (filter.size === best.size && filter.exact && !best.exact) ? filter : best));
  const tests = filters.filter((filter) => filter !== driver || !filter.exact).map((filter) => filter.test);
  const [low, high] = driver.range ?? [0, driver.size];
  const at = driver.list ? (i: number) => (driver.list as Int32Array)[i] as number : (i: number) => i;

  if (tests.length === 0) {
    const start = Math.min(low + offset, high);
    const end = Math.min(start + limit, high);
    return { total: high - low, page: Int32Array.from({ length: end - start }, (_, i) => at(start + i)) };
  }
  const page: number[] = [];
  let total = 0;
  for (let i = low; i < high; i++) {
    const position = at(i);
    let pass = true;
    for (const test of tests) {
      if (!test(position)) {
        pass = false;
        break;
      }
    }
    if (!pass) continue;
    if (total >= offset && page.length < limit) page.push(position);
    total++;
  }
  return { total, page: Int32Array.from(page) };
}

export function searchReviews(catalog: ReviewCatalog, query: SearchQuery): SearchResult {
  const { total, page } = run(catalog, query);
  const { offset, limit } = query;
  const response: SearchResponse = {
    total,
    count: page.length,
    offset,
    limit,
    reviews: Array.from(page, (position) => catalog.reviews[position] as Review),
  };
  return {
    response,
    json: () =>
      `{"total":${total},"count":${page.length},"offset":${offset},"limit":${limit},"reviews":${reviewsJsonArray(catalog, page)}}\n`,
  };
}
