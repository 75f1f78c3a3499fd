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
import { PAGE_TOKENS, reviewTokensOf } from './review-tokens.ts';

export interface PageOptions {
  /** The fields each review keeps (record order, id included); undefined keeps them all. */
  fields?: readonly ReviewField[] | undefined;
  /**
   * Most tokens the page's reviews may take in an MCP result (as JSON and as escaped
   * JSON); past it the page is cut (never below one review).
   */
  maxTokens?: number | undefined;
}

export interface ReviewPage {
  /** The reviews, whole or with only the asked fields: read back from their JSON when asked for. */
  readonly reviews: Partial<Review>[];
  /** How many of the given positions the page kept (fewer only when cut by `maxTokens`). */
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

export function reviewPage(catalog: ReviewCatalog, positions: ArrayLike<number>, { fields, maxTokens }: PageOptions = {}): ReviewPage {
  const projected = fields ? Array.from(positions, (position) => toByteString(JSON.stringify(project(catalog.reviewAt(position), fields)))) : undefined;
  const jsonAt = (i: number): ByteString => projected?.[i] ?? (catalog.entries[positions[i] as number] as CatalogEntry).json;
  let count = positions.length;
  if (maxTokens !== undefined) {
    const tokens = reviewTokensOf(catalog);
    let size = PAGE_TOKENS;
    for (let i = 0; i < positions.length; i++) {
      size += tokens.ofReview(positions[i] as number, fields);
      if (size > maxTokens && i > 0) {
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
