/**
 * The in-memory catalog of the published reviews: built once per build from the
 * lines of /reviews.json (see catalog-builder.ts), it holds the indexes that let
 * search and sync touch only the reviews their filters select, and each review's
 * JSON as published, as a byte string (UTF-8 bytes, see byte-string.ts), so that a
 * response is assembled by joining bytes. It keeps no parsed review: the few an
 * answer shows whole (a page of the review browser, one review) are read back from
 * their JSON, which at 100,000 reviews saves the parsed copy's 200 MB.
 */
import { ascii, fromByteString, toByteString, type ByteString } from '../byte-string.ts';
import type { ReviewsDatasetHead } from '../datasets.ts';
import type { Review } from '../schemas/review.ts';
import { foldText } from '../text.ts';
import type { PositionSet } from './position-set.ts';
import type { TextIndex } from './text-index.ts';

type Business = ReviewsDatasetHead['business'];

/** What the catalog keeps of one review: its published bytes and the fields its indexes are made of. */
export interface CatalogEntry {
  /** The review's JSON text as UTF-8 in a byte string, byte for byte as in /reviews.json. */
  readonly json: ByteString;
  /** sha256 of `json`, hex: the links of the sync listings' digests (see since.ts). */
  readonly digest: string;
  readonly id: string;
  readonly date: string;
  readonly rating: number;
  /** Its date, or its owner response's when later: when it last changed. */
  readonly updated: string;
  readonly technicians: readonly string[];
  readonly services: readonly string[];
  /** Folded title and text, as the text index searches them (see text-index.ts). */
  readonly text: string;
}

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
  /** Technician ids by folded id, name and alias (an alias two technicians share names both): see namedIds. */
  readonly technicianNames: ReadonlyMap<string, readonly string[]>;
  /** Service ids by folded id, name and alias, likewise. */
  readonly serviceNames: ReadonlyMap<string, readonly string[]>;
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
  readonly aggregateRating: ReviewsDatasetHead['aggregate_rating'];
  /** The dataset's `updated`: the newest review or owner-response date. */
  readonly updated: string | null;
  /** How many verified reviews it holds. */
  readonly count: number;
  /** The reviews newest first (date descending, then id); a review's index is its position. */
  readonly entries: readonly CatalogEntry[];
  /** The review at a position, read back from its JSON (a new object each call). */
  reviewAt(position: number): Review;
  /**
   * A review's JSON text escaped as the inside of a JSON string, as a byte string,
   * made on first use and kept: MCP answers carry each review's JSON a second time, as text.
   */
  reviewJsonEscaped(position: number): ByteString;
  /** The position of the review with this id, if it is published. */
  positionOf(id: string): number | undefined;
  /** The review with this id, if it is published. */
  review(id: string): Review | undefined;
  readonly index: CatalogIndex;
}

/** How a technician or service is looked up: folded, inner white space single. */
export function normalizeName(name: string): string {
  return foldText(name).trim().replace(/\s+/gu, ' ');
}

/**
 * The ids of the technicians or services a person or an agent means by `value`: an
 * id, a name or an alias from business.json, in any case, with or without accents
 * ("Tomás Villarreal", "tomas villarreal", "Tomas", "keisha"). Every place that takes
 * a technician or a service (search, the review browser, MCP tools and prompts, their
 * completions) reads it through this function, so all accept the same spellings.
 */
export function namedIds(index: CatalogIndex, kind: 'technician' | 'service', value: string): readonly string[] {
  return (kind === 'technician' ? index.technicianNames : index.serviceNames).get(normalizeName(value)) ?? [];
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
  json: (position: number) => ByteString = (position) => (catalog.entries[position] as CatalogEntry).json,
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

/** The catalog's accessors over its entries and indexes. */
export function reviewCatalog(head: ReviewsDatasetHead, entries: readonly CatalogEntry[], index: CatalogIndex, positions: ReadonlyMap<string, number>): ReviewCatalog {
  const escaped = new Array<ByteString | undefined>(entries.length);
  const reviewAt = (position: number): Review => JSON.parse(fromByteString((entries[position] as CatalogEntry).json)) as Review;
  return {
    business: head.business,
    aggregateRating: head.aggregate_rating,
    updated: head.updated,
    count: entries.length,
    entries,
    reviewAt,
    reviewJsonEscaped: (position) =>
      (escaped[position] ??= toByteString(JSON.stringify(fromByteString((entries[position] as CatalogEntry).json)).slice(1, -1))),
    positionOf: (id) => positions.get(id),
    review: (id) => {
      const position = positions.get(id);
      return position === undefined ? undefined : reviewAt(position);
    },
    index,
  };
}
