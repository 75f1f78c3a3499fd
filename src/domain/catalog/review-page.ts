/**
 * A page of reviews as an answer carries them: every field (each review's prepared
 * JSON, byte for byte as in /reviews.json) or only the `fields` asked for, and, when
 * a token budget is given, cut short before its reviews would pass it (counted in
 * both copies an MCP result holds, see review-tokens.ts; a review is never cut).
 * One implementation for the search and since answers, over HTTP and MCP.
 */
import { fromByteString, toByteString, type ByteString } from '../byte-string.ts';
import type { ReviewField } from '../schemas/review-fields.ts';
import type { Review } from '../schemas/review.ts';
import { reviewsJsonParts, type CatalogEntry, type ReviewCatalog } from './review-catalog.ts';

/**
 * A bound on what a page's reviews may take, and what each takes (the MCP tools give
 * token counts, see review-tokens.ts; the tokenizer stays out of what pages import).
 */
export interface PageBudget {
  readonly max: number;
  /** What the page takes with no review. */
  readonly empty: number;
  sizeOf(position: number, fields?: readonly ReviewField[]): number;
}

export interface PageOptions {
  /** The fields each review keeps (record order, id included); undefined keeps them all. */
  fields?: readonly ReviewField[] | undefined;
  /** Past this budget the page is cut (never below one review). */
  budget?: PageBudget | undefined;
}

export interface ReviewPage {
  /** The reviews, whole or with only the asked fields: read back from their JSON when asked for. */
  readonly reviews: Partial<Review>[];
  /** How many of the given positions the page kept (fewer only when cut by `budget`). */
  readonly count: number;
  /** The reviews as a JSON array, in byte strings that join to it. */
  json(): ByteString[];
  /** The same JSON escaped as the inside of a JSON string, in byte strings that join to it. */
  jsonEscaped(): ByteString[];
}

function project(review: Review, fields: readonly ReviewField[]): Partial<Review> {
  const out: Partial<Record<ReviewField, unknown>> = {};
  for (const field of fields) out[field] = review[field];
  return out as Partial<Review>;
}

export function reviewPage(catalog: ReviewCatalog, positions: ArrayLike<number>, { fields, budget }: PageOptions = {}): ReviewPage {
  const projected = fields ? Array.from(positions, (position) => toByteString(JSON.stringify(project(catalog.reviewAt(position), fields)))) : undefined;
  const jsonAt = (i: number): ByteString => projected?.[i] ?? (catalog.entries[positions[i] as number] as CatalogEntry).json;
  let count = positions.length;
  if (budget !== undefined) {
    let size = budget.empty;
    for (let i = 0; i < positions.length; i++) {
      size += budget.sizeOf(positions[i] as number, fields);
      if (size > budget.max && i > 0) {
        count = i;
        break;
      }
    }
  }
  const kept = Array.from({ length: count }, (_, i) => positions[i] as number);
  const indexes = Array.from(kept.keys());
  return {
    get reviews() {
      return kept.map((position) => (fields ? project(catalog.reviewAt(position), fields) : catalog.reviewAt(position)));
    },
    count,
    json: () => reviewsJsonParts(catalog, indexes, jsonAt),
    jsonEscaped: () =>
      fields
        ? reviewsJsonParts(catalog, indexes, (i) => toByteString(JSON.stringify(fromByteString(jsonAt(i))).slice(1, -1)))
        : reviewsJsonParts(catalog, kept, catalog.reviewJsonEscaped),
  };
}
