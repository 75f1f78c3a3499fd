/**
 * The `fields` parameter of the search and since answers (HTTP and MCP): which fields
 * of each review a page keeps.
 */
import { z } from 'zod';
import { reviewSchema, type Review } from './review.ts';

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
