/** OpenAPI paths of what a business embeds on its website: the widget's document and the badge (docs/embed.md). */
import { z } from 'zod';
import { searchQuerySchema } from '../schemas/search.ts';
import { WIDGET_FILTERS, WIDGET_LIMIT_DEFAULT, WIDGET_LIMIT_MAX, WIDGET_SORTS } from '../schemas/widget.ts';
import { inlineSchema, ref } from './components.ts';
import { conditionalParameters, errorResponse, jsonResponse, notAcceptable, notModified, refusedMethod, validatorHeaders, type PathItems } from './shared.ts';

export interface WidgetPathsOptions {
  /** The business's service ids: the values `mentions_service` accepts. */
  serviceIds: readonly string[];
}

const corsHeaders = {
  Link: { description: 'rel="service-desc": this OpenAPI document.', schema: { type: 'string' } },
  'Access-Control-Allow-Origin': { schema: { type: 'string', const: '*' } },
};

function widgetParameters({ serviceIds }: WidgetPathsOptions) {
  const own = [
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `How many reviews to show (1 to ${WIDGET_LIMIT_MAX}).`,
      schema: { type: 'integer', minimum: 1, maximum: WIDGET_LIMIT_MAX, default: WIDGET_LIMIT_DEFAULT },
    },
    {
      name: 'sort',
      in: 'query',
      required: false,
      description: 'newest: newest first; best: five stars first, then four and so on, newest first within a rating.',
      schema: { type: 'string', enum: [...WIDGET_SORTS], default: 'newest' },
    },
  ];
  const filters = WIDGET_FILTERS.map((name) => {
    const { description, ...schema } = inlineSchema(searchQuerySchema.shape[name] as z.ZodType, 'output');
    if (name === 'mentions_service' && serviceIds.length) schema.enum = [...serviceIds];
    return { name, in: 'query', required: false, description: `${String(description)} As in the search.`, schema };
  });
  return [...own, ...filters, ...conditionalParameters];
}

export function widgetPaths(options: WidgetPathsOptions): PathItems {
  return {
    '/api/widget': {
      get: {
        operationId: 'getWidgetReviews',
        summary: 'What the embeddable widget shows: the rating, the count and a few reviews',
        description:
          'The reviews are those the search gives for the same filters (`sort=best`: the search per rating, five stars first), with a few fields each and ' +
          "the address of the review's page. Answers are made once per build: revalidate with If-None-Match. Unknown, repeated, empty or out-of-range " +
          'parameters are refused with 400, naming each one and what is allowed.',
        tags: ['embed'],
        parameters: widgetParameters(options),
        responses: {
          '200': jsonResponse('The rating, the count and the reviews to show.', ref('WidgetResponse'), { ...validatorHeaders, ...corsHeaders }),
          '304': notModified,
          '400': errorResponse('A parameter is invalid, unknown, repeated or empty (`error` is "invalid_query"); `issues` names each one and what is allowed.'),
        },
      },
      post: { ...refusedMethod('postWidgetReviews', 'Not allowed: the widget reads with GET', 'GET, HEAD', errorResponse('Only GET and HEAD are allowed (`error` is "method_not_allowed").')), tags: ['embed'] },
    },
    '/badge.svg': {
      get: {
        operationId: 'getBadge',
        summary: 'The rating and the number of reviews as an SVG badge',
        description: 'A document of the build, for an <img> on a website or a README: sized in pixels with a viewBox, its text readable, a <title> for screen readers.',
        tags: ['embed'],
        parameters: conditionalParameters,
        responses: {
          '200': { description: 'The badge.', headers: validatorHeaders, content: { 'image/svg+xml': { schema: { type: 'string' } } } },
          '304': notModified,
          '406': notAcceptable,
        },
      },
    },
  };
}
