import type { ReviewCatalog } from '../../../domain/catalog/review-catalog.ts';
import { reviewArgumentsSchema, reviewResultSchema } from '../../../domain/schemas/mcp-tools.ts';
import { defineTool, type McpTool } from './define-tool.ts';

export function getReviewTool(catalog: ReviewCatalog): McpTool {
  const example = catalog.entries[0]?.id;
  return defineTool({
    name: 'get_review',
    title: 'One review by id',
    description:
      'One verified review in full (rating, date, title, text, author, verification, service area, services and ' +
      'technicians it mentions, owner response, aspects with sentiment), by its id' +
      (example ? `, e.g. ${JSON.stringify(example)}` : '') +
      '. Use it for a review id that get_insights or another result names. An unknown id is an error.',
    input: reviewArgumentsSchema,
    output: reviewResultSchema,
    whenTooLarge: 'Fetch the reviews dataset (/reviews.json) over HTTP instead.',
    run: ({ id }) => {
      const review = catalog.review(id);
      if (review) return { ok: true, value: { review } };
      return {
        ok: false,
        message:
          `No published review has the id ${JSON.stringify(id)}. Ids are exact and case-sensitive` +
          (example ? ` (e.g. ${JSON.stringify(example)})` : '') +
          '; find them with search_reviews or get_reviews_since.',
      };
    },
  });
}
