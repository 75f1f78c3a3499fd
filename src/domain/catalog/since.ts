/**
 * Incremental sync: every review dated on or after a day, oldest first (date
 * ascending, then id), so that a client applies them in order. The HTTP route
 * `GET /api/reviews/since/{date}` answers `listing.json()` with `listing.etag()`
 * and `listing.lastModified`; the MCP tool `get_reviews_since` pages through
 * `reviewsSince(catalog, date, { offset, limit })` (`total` counts them all).
 *
 * The ETag is a digest of the response's bytes: the envelope as sent and, through
 * a chain of sha256 digests prepared with the catalog, the JSON of each review in
 * it. Identical bytes give the same tag on any instance and after any identical
 * rebuild; a change to any review in the listing, or to the envelope, changes it.
 * Answering a revalidation costs a binary search and one small hash.
 */
import { createHash } from 'node:crypto';
import { ascii, joinBytes, toByteString, type ByteString } from '../byte-string.ts';
import { maxDate } from '../dates.ts';
import { dateParameterSchema, type SinceResponse } from '../schemas/search.ts';
import type { Review } from '../schemas/review.ts';
import type { QueryIssue } from '../schemas/errors.ts';
import { reviewsJsonParts, type CatalogEntry, type ReviewCatalog } from './review-catalog.ts';
import { issuesFromZod, repeatedParameterIssue, unknownParameterIssues, type Parsed } from './query-issues.ts';
import { fieldsParameterSchema, type ReviewField } from '../schemas/review-fields.ts';
import { reviewPage } from './review-page.ts';

export interface SinceListing {
  /** `{ since, count, reviews }`, oldest first: the HTTP body as an object (made when asked). */
  readonly response: SinceResponse;
  /** Every review on or after `since`; more than `response.count` when a page was asked for. */
  readonly total: number;
  /** The listing's catalog positions, oldest first. */
  readonly positions: Int32Array;
  /** The newest review or owner-response date in the listing, else the dataset's `updated`. */
  readonly lastModified: string | null;
  /** The same body as JSON text plus "\n", in a byte string (UTF-8, see byte-string.ts). */
  json(): ByteString;
  /** The same bytes in parts that join to it, for writing a big listing a chunk at a time. */
  parts(): ByteString[];
  /** Strong ETag (quoted) of `json()`'s bytes. */
  etag(): string;
}

export interface SinceRequest {
  date: string;
  fields?: readonly ReviewField[] | undefined;
}

const SINCE_PARAMETERS = ['fields'];

/** The `{date}` of the path and the query string (which may name only `fields`) of a since request. */
export function parseSinceRequest(date: string, params: URLSearchParams): Parsed<SinceRequest> {
  const issues: QueryIssue[] = unknownParameterIssues([...new Set(params.keys())].filter((name) => !SINCE_PARAMETERS.includes(name)), SINCE_PARAMETERS);
  const parsed = dateParameterSchema.safeParse(date);
  if (!parsed.success) issues.push(...issuesFromZod(parsed.error, { date }, [], 'date'));
  const given = params.getAll('fields');
  let fields: readonly ReviewField[] | undefined;
  if (given.length > 1) issues.push(repeatedParameterIssue('fields', given.length));
  else if (given.length === 1) {
    const read = fieldsParameterSchema.safeParse(given[0]);
    if (read.success) fields = read.data;
    else issues.push(...issuesFromZod(read.error, { fields: given[0] }, SINCE_PARAMETERS, 'fields'));
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: { date, fields } };
}

/** First oldest-first index whose review is dated on or after `since`. */
function firstOnOrAfter(catalog: ReviewCatalog, since: string): number {
  const { oldestFirst } = catalog.index;
  let low = 0;
  let high = oldestFirst.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((catalog.index.dates[oldestFirst[mid] as number] as string) < since) low = mid + 1;
    else high = mid;
  }
  return low;
}

function envelopeStart(since: string, count: number): ByteString {
  return toByteString(`{"since":${JSON.stringify(since)},"count":${count},"reviews":`);
}

const ENVELOPE_END = ascii('}\n');

/** `fields`: only these fields of each review (the body then is not the chain of prepared digests: its ETag hashes the bytes). */
export function reviewsSince(catalog: ReviewCatalog, since: string, page?: { offset: number; limit: number }, fields?: readonly ReviewField[]): SinceListing {
  const { oldestFirst, digestFrom, changedFrom } = catalog.index;
  const first = firstOnOrAfter(catalog, since);
  const total = oldestFirst.length - first;
  const start = Math.min(first + (page?.offset ?? 0), oldestFirst.length);
  const end = page ? Math.min(start + page.limit, oldestFirst.length) : oldestFirst.length;
  const positions = oldestFirst.subarray(start, end);
  const reviewParts = () => (fields ? reviewPage(catalog, positions, { fields }).json() : reviewsJsonParts(catalog, positions));
  const parts = () => [envelopeStart(since, positions.length), ...reviewParts(), ENVELOPE_END];
  const json = () => joinBytes(parts());
  return {
    get response(): SinceResponse {
      const reviews = fields ? reviewPage(catalog, positions, { fields }).reviews : Array.from(positions, (p) => catalog.reviewAt(p));
      return { since, count: positions.length, reviews: reviews as SinceResponse['reviews'] };
    },
    total,
    positions,
    lastModified: (end === oldestFirst.length ? changedFrom[start] : null) ?? newestChange(catalog, positions) ?? catalog.updated,
    json,
    parts,
    etag: () => {
      // The chain covers a listing that runs to the end; a page in the middle is hashed as it is.
      const digest =
        end === oldestFirst.length && !fields
          ? createHash('sha256').update(envelopeStart(since, positions.length)).update(digestFrom[start] as string).update(ENVELOPE_END)
          : createHash('sha256').update(json(), 'latin1');
      return `"${digest.digest('hex').slice(0, 32)}"`;
    },
  };
}

function newestChange(catalog: ReviewCatalog, positions: Int32Array): string | null {
  let newest: string | null = null;
  for (const position of positions) newest = maxDate(newest, (catalog.entries[position] as CatalogEntry).updated);
  return newest;
}
