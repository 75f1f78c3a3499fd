/**
 * Wire shapes of search and incremental sync. One query schema serves the HTTP
 * route (every value arrives as a string) and the MCP tool (JSON numbers): a
 * numeric string is read as its number before the number rules apply, and the
 * JSON schema generated for either io is the plain number schema.
 */
import { z } from 'zod';
import { fieldsParameterSchema } from './review-fields.ts';
import { isoDateSchema, reviewSchema } from './review.ts';

const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

function numberFromText(value: unknown): unknown {
  return typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : value;
}

const WHOLE_1_TO_5 = 'must be a whole number from 1 to 5';
const NUMBER_1_TO_5 = 'must be a number from 1 to 5, e.g. 3.5';
const LIMIT = 'must be a whole number from 1 to 100';
const OFFSET = 'must be a whole number from 0';
const DATE = 'must be a real calendar date written YYYY-MM-DD, e.g. 2024-03-12';

/** A date parameter: checked against the real calendar (2024-02-30 is refused). */
export const dateParameterSchema = z.iso.date({ error: DATE });

const text = (max: number, what: string) =>
  z
    .string({ error: `must be ${what}` })
    .trim()
    .min(1, { error: `must not be empty; leave the parameter out instead` })
    .max(max, { error: `must be at most ${max} characters` });

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;

export const searchQuerySchema = z
  .strictObject({
    rating: z
      .preprocess(numberFromText, z.int({ error: WHOLE_1_TO_5 }).min(1).max(5))
      .optional()
      .meta({ description: 'Only reviews with exactly this star rating (1 to 5).' }),
    min_rating: z
      .preprocess(numberFromText, z.number({ error: NUMBER_1_TO_5 }).min(1).max(5))
      .optional()
      .meta({ description: 'Only reviews rated at least this (1 to 5; 3.5 keeps 4 and 5 stars).' }),
    since: dateParameterSchema.optional().meta({ description: 'Only reviews dated on or after this day.' }),
    until: dateParameterSchema.optional().meta({ description: 'Only reviews dated on or before this day.' }),
    query: text(500, 'text')
      .optional()
      .meta({ description: 'Case- and accent-insensitive substring of the title or text ("zoe" finds "Zoë"), at most 500 characters.' }),
    mentions_technician: text(200, 'a technician id, name or alias')
      .optional()
      .meta({
        description:
          'Only reviews that mention this technician (tagged or named in the text), given by id, name or alias, case- and accent-insensitive. A name nobody has gives no reviews.',
      }),
    mentions_service: text(200, 'a service id, name or alias')
      .optional()
      .meta({
        description:
          'Only reviews that mention this service, given by id, name or alias, case- and accent-insensitive; one the business does not have is an error that lists the known ids.',
      }),
    limit: z
      .preprocess(numberFromText, z.int({ error: LIMIT }).min(1).max(SEARCH_LIMIT_MAX))
      .default(SEARCH_LIMIT_DEFAULT)
      .meta({ description: 'How many reviews to return at most (1 to 100).' }),
    offset: z
      .preprocess(numberFromText, z.int({ error: OFFSET }).min(0))
      .default(0)
      .meta({ description: 'How many matching reviews to skip, for paging.' }),
    fields: fieldsParameterSchema.optional(),
  })
  .superRefine((query, ctx) => {
    if (query.since && query.until && query.since > query.until) {
      ctx.addIssue({
        code: 'custom',
        path: ['since'],
        params: { reason: 'since_after_until' },
        message: `must not be after until (${query.until}); swap them or widen the range`,
        input: query.since,
      });
    }
  });
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** The parameter names, in the order the documentation lists them. */
export const SEARCH_PARAMETERS = Object.keys(searchQuerySchema.shape) as (keyof SearchQuery)[];

/*
 * The response schemas stay free of an id, so that an MCP tool can use them as
 * its outputSchema (a root `$ref` is not an object schema); registered clones
 * give the OpenAPI components.
 */
/** A review of a listing: every field, or those that `fields` named (id always). */
export const listedReviewSchema = reviewSchema.partial().required({ id: true }).meta({
  description: 'A verified customer review: every field, or only those the fields parameter names (id always).',
});

/** Present only when an MCP tool cut its page short to stay within its result budget (MCP_RESULT_MAX_TOKENS). */
export const nextOffsetSchema = z.int().min(0).optional().meta({
  description: 'Only when the page was cut short to stay within the result budget (count < limit): the offset to ask for next.',
});

export const searchResponseSchema = z.object({
  total: z.int().min(0).meta({ description: 'How many reviews match, across all pages.' }),
  count: z.int().min(0).max(SEARCH_LIMIT_MAX).meta({ description: 'How many reviews this page holds.' }),
  offset: z.int().min(0),
  limit: z.int().min(1).max(SEARCH_LIMIT_MAX),
  next_offset: nextOffsetSchema,
  reviews: z.array(listedReviewSchema).meta({ description: 'The matching reviews of this page, newest first (date descending, then id).' }),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
searchResponseSchema.meta({ id: 'SearchResponse', description: 'A page of the reviews that match every given filter.' });

export const sinceResponseSchema = z.object({
  since: isoDateSchema,
  count: z.int().min(0),
  reviews: z
    .array(listedReviewSchema)
    .meta({ description: 'Every review dated on or after `since`, oldest first (date ascending, then id), to apply in order.' }),
});
export type SinceResponse = z.infer<typeof sinceResponseSchema>;
sinceResponseSchema.meta({ id: 'SinceResponse', description: 'The reviews dated on or after a day.' });
