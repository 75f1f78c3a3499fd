/**
 * A page of reviews as an answer carries them: every field (each review's prepared
 * JSON, byte for byte as in /reviews.json) or only the `fields` asked for, and, when
 * a size budget is given, cut short before the JSON of its reviews would pass it.
 * One implementation for the search and since answers, over HTTP and MCP.
 */
import { z } from 'zod';
import { toByteString, type ByteString } from '../byte-string.ts';
import { reviewSchema, type Review } from '../schemas/review.ts';
import { reviewsJsonParts, type ReviewCatalog } from './catalog.ts';

/** The fields of a review record, in the order a record has them; `id` is always included. */
export const REVIEW_FIELDS = Object.keys(reviewSchema.shape) as (keyof Review)[];
export type ReviewField = keyof Review;

const FIELDS_TEXT = `a comma list of review fields (${REVIEW_FIELDS.join(', ')})`;

/**
 * The `fields` parameter: `id,rating,date` → the fields in record order, `id` first
 * whether named or not. An unknown name is an issue that lists the allowed ones.
 */
export const fieldsParameterSchema = z
  .string({ error: `must be ${FIELDS_TEXT}` })
  .transform((value, ctx) => {
    const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
    const unknown = names.filter((name) => !(REVIEW_FIELDS as string[]).includes(name));
    if (names.length === 0 || unknown.length > 0) {
      const what = names.length === 0 ? 'names no field' : `has ${unknown.map((name) => JSON.stringify(name.slice(0, 40))).join(', ')}, not a field`;
      ctx.addIssue({ code: 'custom', params: { reason: 'unknown_field' }, message: `must be ${FIELDS_TEXT}; this one ${what}` });
      return z.NEVER;
    }
    return REVIEW_FIELDS.filter((field) => field === 'id' || names.includes(field));
  })
  .meta({
    description: `Only these fields of each review, as ${FIELDS_TEXT}, e.g. "id,rating,date,title,text"; id is always included. Leave it out for every field.`,
  });

export interface PageOptions {
  /** The fields each review keeps (record order, id included); undefined keeps them all. */
  fields?: readonly ReviewField[] | undefined;
  /** Most bytes of review JSON the page may hold; past it the page is cut (never below one review). */
  maxBytes?: number | undefined;
}

export interface ReviewPage {
  /** The reviews, whole or with only the asked fields. */
  readonly reviews: Partial<Review>[];
  /** How many of the given positions the page kept (fewer only when cut by `maxBytes`). */
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

export function reviewPage(catalog: ReviewCatalog, positions: ArrayLike<number>, { fields, maxBytes }: PageOptions = {}): ReviewPage {
  const projected = fields ? Array.from(positions, (position) => toByteString(JSON.stringify(project(catalog.reviews[position] as Review, fields)))) : undefined;
  const jsonAt = (i: number): ByteString => projected?.[i] ?? (catalog.reviewJson[positions[i] as number] as ByteString);
  let count = positions.length;
  if (maxBytes !== undefined) {
    let size = 2;
    for (let i = 0; i < positions.length; i++) {
      size += jsonAt(i).length + 1;
      if (size > maxBytes && i > 0) {
        count = i;
        break;
      }
    }
  }
  const kept = Array.from({ length: count }, (_, i) => positions[i] as number);
  const indexes = Array.from(kept.keys());
  return {
    reviews: kept.map((position) => (fields ? project(catalog.reviews[position] as Review, fields) : (catalog.reviews[position] as Review))),
    count,
    json: () => reviewsJsonParts(catalog, indexes, jsonAt),
    jsonEscaped: () =>
      fields
        ? reviewsJsonParts(catalog, indexes, (i) => toByteString(JSON.stringify(JSON.stringify(project(catalog.reviews[kept[i] as number] as Review, fields))).slice(1, -1)))
        : reviewsJsonParts(catalog, kept, catalog.reviewJsonEscaped),
  };
}
