/**
 * Search over the review catalog: the one implementation behind
 * `GET /api/reviews/search` and the MCP tool `search_reviews`.
 *
 * How to call it (both callers do the same three steps):
 *
 *   const catalog = servedCatalog();                     // src/server/builds/served-catalog.ts, built once per build
 *   const parsed = parseSearchArguments(catalog, args);  // MCP arguments; HTTP uses parseSearchParams(catalog, url.searchParams)
 *   if (!parsed.ok) → parsed.issues: [{ path, code, message }], the 400's issues / the tool error's text
 *   const result = searchReviews(catalog, parsed.value);
 *   result.response  → { total, count, offset, limit, reviews }: the body as an object (MCP structuredContent)
 *   result.json()    → the same body as JSON text plus "\n" (the HTTP body, the MCP text copy), as
 *                      byte strings (UTF-8, see byte-string.ts) that join to it: each review's prepared JSON
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
 * Work per request: a date range is a binary search; each rating, technician and
 * service is a prepared set of positions (a list and a bitset, see
 * position-set.ts), a text needle a set from a word index (text-index.ts). A lone
 * set is sliced as a list; several are ANDed 32 positions at a time over the
 * date range. A needle of several words needs texts read: only those the other
 * filters leave when they leave few, else every candidate's once, cached by needle.
 */
import { ascii, type ByteString } from '../byte-string.ts';
import type { SearchQuery, SearchResponse } from '../schemas/search.ts';
import { namedIds, type ReviewCatalog } from './review-catalog.ts';
import { reviewPage, type PageBudget } from './review-page.ts';
import { intersectRange, keepMembers, pageOfBits, type PositionSet } from './position-set.ts';
import { EMPTY_LIST, intersect, restrictTo, union } from './sorted-lists.ts';
import { matchText, verifiedMatches } from './text-index.ts';

export interface SearchResult {
  /** The body as an object, its reviews read back from their JSON: made when asked for, as most answers only need json(). */
  readonly response: SearchResponse;
  /** The response without its reviews: what paging needs, without reading a review back. */
  readonly counts: Omit<SearchResponse, 'reviews'>;
  /** The response body, as GET /api/reviews/search sends it, in byte strings that join to it. */
  json(): ByteString[];
  /** The same body as a JSON string literal, JSON.stringify(json() joined), in byte strings that join to it. */
  jsonLiteral(): ByteString[];
}

/** How many leading positions pass `keep`; dates are descending, so those that pass come first. */
function leading(dates: readonly string[], keep: (date: string) => boolean): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keep(dates[mid] as string)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Read only the texts the other filters leave when they leave this many times fewer than a needle's candidates. */
const CHECK_IN_PLACE = 8;

/**
 * What a query selects: a range of positions, the sets and lists (a union of
 * technicians' sets) it must be in, and a text check for what they leave.
 */
interface Selection {
  low: number;
  high: number;
  sets: PositionSet[];
  lists: Int32Array[];
  check?: (position: number) => boolean;
}

function select(catalog: ReviewCatalog, query: SearchQuery): Selection {
  const { index } = catalog;
  const { since, until } = query;
  const low = until === undefined ? 0 : leading(index.dates, (date) => date > until);
  const high = Math.max(low, since === undefined ? index.dates.length : leading(index.dates, (date) => date >= since));
  const selection: Selection = { low, high, sets: [], lists: [] };
  const { sets, lists } = selection;
  if (query.rating !== undefined) sets.push(index.byRating[query.rating] as PositionSet);
  if (query.min_rating !== undefined) sets.push(index.atLeastRating[Math.ceil(query.min_rating)] as PositionSet);
  if (query.mentions_technician !== undefined) {
    const known = namedIds(index, 'technician', query.mentions_technician).flatMap((id) => index.byTechnician.get(id) ?? []);
    if (known.length === 1) sets.push(known[0] as PositionSet);
    else lists.push(union(known.map((set) => set.list), index.marks));
  }
  if (query.mentions_service !== undefined) {
    const known = namedIds(index, 'service', query.mentions_service).flatMap((id) => index.byService.get(id) ?? []);
    if (known.length === 1) sets.push(known[0] as PositionSet);
    else if (known.length === 0) lists.push(EMPTY_LIST);
    else lists.push(union(known.map((set) => set.list), index.marks));
  }
  if (query.query !== undefined) {
    const match = matchText(index.text, query.query);
    if (match.matches) sets.push(match.matches);
    else {
      const others = Math.min(high - low, ...[...sets.map((set) => set.list), ...lists].map((list) => restrictTo(list, low, high).length));
      const candidates = match.candidates ? restrictTo(match.candidates, low, high).length : high - low;
      // When the other filters leave few reviews, read their texts rather than every candidate's.
      if (others * CHECK_IN_PLACE < candidates) selection.check = (p) => (index.text.texts[p] as string).includes(match.needle);
      else sets.push(verifiedMatches(index.text, match));
    }
  }
  return selection;
}

/** Every match counted, the page's positions collected, newest first. */
function run(catalog: ReviewCatalog, query: SearchQuery): { total: number; page: ArrayLike<number> } {
  const { offset, limit } = query;
  const { low, high, sets, lists, check } = select(catalog, query);
  const { bits } = catalog.index;
  if (lists.length === 0 && sets.length > 1) {
    intersectRange(sets, low, high, bits);
    return pageOfBits(bits, low, high, offset, limit, check);
  }
  // Otherwise walk a list: the intersection of the lists, else the one set's; sets filter what the lists leave.
  const walked = lists.length ? lists : sets.splice(0, 1).map((set) => set.list);
  let matches: Int32Array | undefined;
  for (const list of walked.map((l) => restrictTo(l, low, high)).sort((a, b) => a.length - b.length)) {
    matches = matches ? intersect(matches, list) : list;
  }
  if (matches && sets.length) matches = keepMembers(matches, sets);
  const size = matches ? matches.length : high - low;
  const at = matches ? (i: number) => (matches as Int32Array)[i] as number : (i: number) => low + i;
  if (!check) {
    const start = Math.min(offset, size);
    const end = Math.min(start + limit, size);
    return { total: size, page: Int32Array.from({ length: end - start }, (_, i) => at(start + i)) };
  }
  const page: number[] = [];
  let total = 0;
  for (let i = 0; i < size; i++) {
    const position = at(i);
    if (!check(position)) continue;
    if (total >= offset && page.length < limit) page.push(position);
    total++;
  }
  return { total, page };
}

const END = ascii('}\n');
/** END inside a JSON string, and the closing quote. */
const END_LITERAL = ascii('}\\n"');

/**
 * `budget` bounds the tokens of the page's reviews (the MCP tool's result budget): a
 * page that would pass it holds fewer reviews (at least one), and the body names
 * `next_offset`. The HTTP route gives none, so its pages are always whole.
 */
export function searchReviews(catalog: ReviewCatalog, query: SearchQuery, budget?: PageBudget): SearchResult {
  const { total, page: positions } = run(catalog, query);
  const { offset, limit } = query;
  const page = reviewPage(catalog, positions, { fields: query.fields, budget });
  const cut = page.count < positions.length;
  const counts = { total, count: page.count, offset, limit, ...(cut ? { next_offset: offset + page.count } : {}) };
  let response: SearchResponse | undefined;
  const next = cut ? `,"next_offset":${offset + page.count}` : '';
  const head = ascii(`{"total":${total},"count":${page.count},"offset":${offset},"limit":${limit}${next},"reviews":`);
  return {
    counts,
    get response(): SearchResponse {
      response ??= { ...counts, reviews: page.reviews as SearchResponse['reviews'] };
      return response;
    },
    json: () => [head, ...page.json(), END],
    jsonLiteral: () => [ascii(JSON.stringify(head).slice(0, -1)), ...page.jsonEscaped(), END_LITERAL],
  };
}
