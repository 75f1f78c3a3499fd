/** OpenAPI paths of search and incremental sync, generated from the schemas the routes parse with. */
import { z } from 'zod';
import { dateParameterSchema, searchQuerySchema } from '../schemas/search.ts';
import { inlineSchema, ref } from './components.ts';
import { conditionalParameters, errorResponse, jsonResponse, notModified, refusedMethod, validatorHeaders, type PathItems } from './shared.ts';

export interface SearchPathsOptions {
  /** The business's service ids: examples of what `mentions_service` accepts (names and aliases work too). */
  serviceIds: readonly string[];
}

const linkHeader = {
  Link: { description: 'rel="service-desc": this OpenAPI document.', schema: { type: 'string' } },
  'Access-Control-Allow-Origin': { schema: { type: 'string', const: '*' } },
};

/** One query parameter per field of the query schema, its description lifted from the schema. */
function queryParameters({ serviceIds }: SearchPathsOptions) {
  return Object.entries(searchQuerySchema.shape).map(([name, field]) => {
    const { description, ...schema } = inlineSchema(field as z.ZodType, 'output');
    if (name === 'mentions_service' && serviceIds.length) schema.examples = [...serviceIds];
    return { name, in: 'query', required: false, description, schema };
  });
}

export function searchPaths(options: SearchPathsOptions): PathItems {
  const dateParameter = {
    name: 'date',
    in: 'path',
    required: true,
    description: 'The first day to include, YYYY-MM-DD (a real calendar date). The route takes no query parameters.',
    schema: inlineSchema(dateParameterSchema),
  };
  return {
    '/api/reviews/search': {
      get: {
        operationId: 'searchReviews',
        summary: 'Search the reviews by rating, date, text, technician and service',
        description:
          'Filters combine with AND. Reviews come newest first (date descending, then id ascending), `limit` at a time from `offset`; ' +
          '`total` counts every match. Unknown, repeated or empty parameters are refused with 400, so a typo never returns everything. ' +
          'The MCP tool `search_reviews` takes the same parameters and returns the same body.',
        tags: ['search'],
        parameters: queryParameters(options),
        responses: {
          '200': jsonResponse('The matching reviews, newest first.', ref('SearchResponse'), {
            'Cache-Control': validatorHeaders['Cache-Control'],
            ...linkHeader,
          }),
          '400': errorResponse('A parameter is invalid, unknown, repeated or empty (`error` is "invalid_query"); `issues` names each one and what is allowed.'),
        },
      },
      post: { ...refusedMethod('postSearchReviews', 'Not allowed: search is a GET', 'GET, HEAD', errorResponse('Only GET and HEAD are allowed (`error` is "method_not_allowed").')), tags: ['search'] },
    },
    '/api/reviews/since/{date}': {
      get: {
        operationId: 'getReviewsSince',
        summary: 'Every review dated on or after a day, oldest first, for incremental sync',
        description:
          'Reviews come oldest first (date ascending, then id ascending) so that a client applies them in order. ' +
          'Revalidate with If-None-Match (the ETag changes whenever the bytes change); Last-Modified is the newest review or owner-response date in the listing.',
        tags: ['search'],
        parameters: [
          dateParameter,
          ...conditionalParameters,
        ],
        responses: {
          '200': jsonResponse('The reviews on or after the day, oldest first.', ref('SinceResponse'), { ...validatorHeaders, ...linkHeader }),
          '304': notModified,
          '400': errorResponse('The date is malformed or not a real calendar date, or a query parameter was given (`error` is "invalid_query").'),
          '404': errorResponse('No date in the path (`/api/reviews/since/`), or more than one segment after `since/` (`error` is "not_found").'),
        },
      },
      post: {
        ...refusedMethod('postReviewsSince', 'Not allowed: sync is a GET', 'GET, HEAD', errorResponse('Only GET and HEAD are allowed (`error` is "method_not_allowed").')),
        parameters: [dateParameter],
        tags: ['search'],
      },
    },
  };
}
