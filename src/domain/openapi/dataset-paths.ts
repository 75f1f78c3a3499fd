import { ref } from './components.ts';
import { conditionalParameters, jsonResponse, notAcceptable, notModified, topicHeaders, type PathItems } from './shared.ts';

function document(operationId: string, summary: string, tag: string, response: Record<string, unknown>) {
  return {
    get: {
      operationId,
      summary,
      tags: [tag],
      parameters: conditionalParameters,
      responses: {
        '200': response,
        '304': notModified,
        '406': notAcceptable,
      },
    },
  };
}

export function datasetPaths(): PathItems {
  return {
    '/reviews.json': document(
      'getReviewsDataset',
      'All verified reviews with business metadata and the aggregate rating',
      'datasets',
      jsonResponse('The reviews dataset; a WebSub topic.', ref('ReviewsDataset'), topicHeaders),
    ),
    '/insights.json': document(
      'getInsights',
      'Aspect-based sentiment, entities, topics, FAQ and summary',
      'datasets',
      jsonResponse('The insights document.', ref('Insights')),
    ),
    '/api/feed.json': document(
      'getJsonFeed',
      'JSON Feed 1.1 of the 50 newest reviews',
      'feeds',
      jsonResponse('The JSON Feed; a WebSub topic.', ref('JsonFeed'), topicHeaders),
    ),
    '/feed.xml': document('getAtomFeed', 'Atom feed of the 50 newest reviews', 'feeds', {
      description: 'The Atom feed; a WebSub topic.',
      headers: topicHeaders,
      content: { 'application/atom+xml': { schema: { type: 'string' } } },
    }),
    '/.well-known/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This OpenAPI description',
        tags: ['datasets'],
        responses: {
          '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } },
          '406': notAcceptable,
        },
      },
    },
  };
}
