/**
 * The in-memory catalog of the published reviews: built once per process from
 * the reviews dataset, it holds the indexes that let search and sync touch only
 * the reviews their filters select, and each review's JSON, prepared once as a
 * byte string (UTF-8 bytes, see byte-string.ts), so that a response is assembled
 * by joining bytes.
 */
import { createHash } from 'node:crypto';
import { reviewUpdated } from '../aggregate.ts';
import { ascii, toByteString, type ByteString } from '../byte-string.ts';
import { maxDate } from '../dates.ts';
import { compareNewestFirst, compareOldestFirst } from '../review-record.ts';
import type { ReviewsDataset } from '../schemas/datasets.ts';
import type { Review } from '../schemas/review.ts';
import { foldText } from '../text.ts';
import { positionSet, type PositionSet } from './position-set.ts';
import { buildTextIndex, type TextIndex } from './text-index.ts';

type Business = ReviewsDataset['business'];

/** What search.ts and since.ts read; other callers use the functions they export. */
export interface CatalogIndex {
  /** Review dates by position: descending, for binary search. */
  readonly dates: readonly string[];
  /** Positions with exactly rating r, at index r (1 to 5). */
  readonly byRating: readonly PositionSet[];
  /** Positions with a rating of at least r, at index r (1 to 5). */
  readonly atLeastRating: readonly PositionSet[];
  /** Positions of the reviews that mention a technician or a service, by its id. */
  readonly byTechnician: ReadonlyMap<string, PositionSet>;
  readonly byService: ReadonlyMap<string, PositionSet>;
  /** Technician ids by folded id, name and alias (an alias two technicians share names both). */
  readonly technicianNames: ReadonlyMap<string, readonly string[]>;
  /** Service ids by folded id. */
  readonly serviceIds: ReadonlyMap<string, string>;
  readonly text: TextIndex;
  /** Scratch space for unions of position lists (see sorted-lists.ts) and for intersections of sets. */
  readonly marks: Uint8Array;
  readonly bits: Uint32Array;
  /** Positions in oldest-first order (date ascending, then id). */
  readonly oldestFirst: Int32Array;
  /** Digest of the JSON of the reviews from oldest-first index i to the end (see since.ts). */
  readonly digestFrom: readonly string[];
  /** Newest review or response date from oldest-first index i to the end. */
  readonly changedFrom: readonly (string | null)[];
}

export interface ReviewCatalog {
  readonly business: Business;
  /** The dataset's `updated`: the newest review or owner-response date. */
  readonly updated: string | null;
  /** The verified reviews, newest first (date descending, then id); a review's index is its position. */
  readonly reviews: readonly Review[];
  /** Each review's JSON text as UTF-8 in a byte string, byte for byte as in /reviews.json, by position. */
  readonly reviewJson: readonly ByteString[];
  /**
   * A review's JSON text escaped as the inside of a JSON string, as a byte string,
   * made on first use and kept: MCP answers carry each review's JSON a second time, as text.
   */
  reviewJsonEscaped(position: number): ByteString;
  /** The review with this id, if it is published. */
  review(id: string): Review | undefined;
  readonly index: CatalogIndex;
}

function positionsWhere(count: number, keep: (position: number) => boolean): Int32Array {
  const out: number[] = [];
  for (let position = 0; position < count; position++) if (keep(position)) out.push(position);
  return Int32Array.from(out);
}

function positionsByKey(reviews: readonly Review[], keys: (review: Review) => readonly string[]): Map<string, PositionSet> {
  const lists = new Map<string, number[]>();
  reviews.forEach((review, position) => {
    for (const key of new Set(keys(review))) {
      const list = lists.get(key) ?? [];
      list.push(position);
      lists.set(key, list);
    }
  });
  return new Map([...lists].map(([key, list]) => [key, positionSet(Int32Array.from(list), reviews.length)]));
}

function technicianNames(business: Business): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const technician of business.technicians) {
    for (const name of [technician.id, technician.name, ...technician.aliases]) {
      const key = normalizeName(name);
      const ids = names.get(key) ?? [];
      if (!ids.includes(technician.id)) ids.push(technician.id);
      names.set(key, ids);
    }
  }
  return names;
}

/** How a technician or service is looked up: folded, inner white space single. */
export function normalizeName(name: string): string {
  return foldText(name).trim().replace(/\s+/gu, ' ');
}

/** sha256 of the JSON from each oldest-first index to the end, each link covering its review and the rest. */
function suffixDigests(json: readonly ByteString[], oldestFirst: Int32Array): string[] {
  const digests = new Array<string>(oldestFirst.length + 1);
  digests[oldestFirst.length] = '';
  for (let i = oldestFirst.length - 1; i >= 0; i--) {
    digests[i] = createHash('sha256')
      .update(json[oldestFirst[i] as number] as ByteString, 'latin1')
      .update(',')
      .update(digests[i + 1] as string)
      .digest('hex');
  }
  return digests;
}

export function buildReviewCatalog(dataset: ReviewsDataset): ReviewCatalog {
  const reviews = [...dataset.reviews].sort(compareNewestFirst);
  const count = reviews.length;
  const reviewJson = reviews.map((review) => toByteString(JSON.stringify(review)));
  const ratings = Uint8Array.from(reviews, (review) => review.rating);
  const ratingSets = [0, 1, 2, 3, 4, 5].map((r) => positionSet(positionsWhere(count, (p) => ratings[p] === r), count));
  const atLeastSets = [0, 1, 2, 3, 4, 5].map((r) => positionSet(positionsWhere(count, (p) => (ratings[p] as number) >= r), count));
  const oldestFirst = Int32Array.from(reviews.keys()).sort((a, b) => compareOldestFirst(reviews[a] as Review, reviews[b] as Review));
  const changedFrom = new Array<string | null>(count + 1);
  changedFrom[count] = null;
  for (let i = count - 1; i >= 0; i--) {
    changedFrom[i] = maxDate(reviewUpdated(reviews[oldestFirst[i] as number] as Review), changedFrom[i + 1] as string | null);
  }
  const byId = new Map(reviews.map((review) => [review.id, review]));
  const marks = new Uint8Array(count);
  const index: CatalogIndex = {
    dates: reviews.map((review) => review.date),
    byRating: ratingSets,
    atLeastRating: atLeastSets,
    byTechnician: positionsByKey(reviews, (review) => review.technicians.map((t) => t.id)),
    byService: positionsByKey(reviews, (review) => review.services.map((s) => s.id)),
    technicianNames: technicianNames(dataset.business),
    serviceIds: new Map(dataset.business.services.map((service) => [normalizeName(service.id), service.id])),
    text: buildTextIndex(
      reviews.map((review) => review.title),
      reviews.map((review) => review.text),
      marks,
    ),
    marks,
    bits: new Uint32Array((count + 31) >>> 5),
    oldestFirst,
    digestFrom: suffixDigests(reviewJson, oldestFirst),
    changedFrom,
  };
  const escaped = new Array<ByteString | undefined>(reviews.length);
  return {
    business: dataset.business,
    updated: dataset.updated,
    reviews,
    reviewJson,
    reviewJsonEscaped: (position) => (escaped[position] ??= toByteString(JSON.stringify(JSON.stringify(reviews[position])).slice(1, -1))),
    review: (id) => byId.get(id),
    index,
  };
}

const OPEN = ascii('[');
const COMMA = ascii(',');
const CLOSE = ascii(']');

/**
 * The JSON array of the reviews at these positions, in this order, in byte strings
 * that join to it; `json` picks each review's bytes (the escaped form, say).
 */
export function reviewsJsonParts(
  catalog: ReviewCatalog,
  positions: ArrayLike<number>,
  json: (position: number) => ByteString = (position) => catalog.reviewJson[position] as ByteString,
): ByteString[] {
  const parts = new Array<ByteString>(positions.length * 2 + 1);
  parts[0] = OPEN;
  for (let i = 0; i < positions.length; i++) {
    parts[2 * i + 1] = json(positions[i] as number);
    parts[2 * i + 2] = i === positions.length - 1 ? CLOSE : COMMA;
  }
  if (positions.length === 0) parts.push(CLOSE);
  return parts;
}
