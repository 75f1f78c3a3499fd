/**
 * Arguments and results of the MCP tools that have no HTTP twin. `search_reviews`
 * uses the search's own schemas (search.ts); the others are defined here, from
 * the same review, business and insights schemas as the datasets.
 */
import { z } from 'zod';
import { aggregateRatingSchema, businessPublicSchema } from './datasets.ts';
import { insightsSchema } from './insights.ts';
import { isoDateSchema, reviewSchema } from './review.ts';
import { fieldsParameterSchema } from './review-fields.ts';
import { dateParameterSchema, listedReviewSchema, nextOffsetSchema, SEARCH_LIMIT_MAX, searchQuerySchema } from './search.ts';

export const SINCE_LIMIT_DEFAULT = 50;

export const businessResultSchema = z.object({
  business: businessPublicSchema,
  aggregate_rating: aggregateRatingSchema,
});

export const sinceArgumentsSchema = z.strictObject({
  date: dateParameterSchema.meta({ description: 'The first day to include, YYYY-MM-DD: reviews dated on or after it.' }),
  // The search's own paging rules (whole numbers, numeric strings read as numbers), with a longer default page.
  limit: searchQuerySchema.shape.limit
    .unwrap()
    .default(SINCE_LIMIT_DEFAULT)
    .meta({ description: `How many reviews to return at most (1 to ${SEARCH_LIMIT_MAX}, default ${SINCE_LIMIT_DEFAULT}).` }),
  offset: searchQuerySchema.shape.offset.meta({ description: 'How many reviews to skip, for paging: the next page starts at offset + count.' }),
  fields: fieldsParameterSchema.optional(),
});

export const sinceResultSchema = z.object({
  since: isoDateSchema,
  total: z.int().min(0).meta({ description: 'How many reviews are dated on or after `since`, across all pages.' }),
  count: z.int().min(0).max(SEARCH_LIMIT_MAX).meta({ description: 'How many reviews this page holds.' }),
  offset: z.int().min(0),
  limit: z.int().min(1).max(SEARCH_LIMIT_MAX),
  next_offset: nextOffsetSchema,
  reviews: z.array(listedReviewSchema).meta({ description: 'This page of the reviews, oldest first (date ascending, then id).' }),
});

export const reviewArgumentsSchema = z.strictObject({
  id: z
    .string({ error: 'must be a review id (a string)' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(200, { error: 'must be at most 200 characters' })
    .meta({ description: 'The id of a review, as search results and the reviews dataset give it.' }),
});

export const reviewResultSchema = z.object({ review: reviewSchema });

export const INSIGHT_SECTIONS = ['aspects', 'entities', 'topics', 'faq', 'rankings', 'analyzer', 'summary'] as const;

export const insightsArgumentsSchema = z.strictObject({
  section: z
    .enum(INSIGHT_SECTIONS, { error: `must be one of ${INSIGHT_SECTIONS.join(', ')}` })
    .optional()
    .meta({ description: 'Only this part of the insights; leave it out for the whole document.' }),
});

/** The whole insights document, or an object with only the asked section. */
export const insightsResultSchema = insightsSchema.partial();
