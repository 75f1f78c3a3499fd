import type { ReviewCatalog } from '../../../domain/catalog/review-catalog.ts';
import { reviewArgumentsSchema, reviewResultSchema } from '../../../domain/schemas/mcp-tools.ts';
import { reviewTokensOf } from '../../../domain/catalog/review-tokens.ts';
import { budgetWords, type ResultBudget } from '../result-budget.ts';
import { defineTool, type McpTool } from './define-tool.ts';

export function getReviewTool(catalog: ReviewCatalog, budget: ResultBudget): McpTool {
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
      const position = catalog.positionOf(id);
      if (position !== undefined) {
        // A review is never cut; one longer than the budget (none is, at the default) is refused with where to read it.
        if (reviewTokensOf(catalog).ofReview(position) > budget.contentTokens) {
          return { ok: false, message: `The review ${JSON.stringify(id)} is longer than this server's result budget of ${budgetWords(budget)}; it is in the reviews dataset (/reviews.json) over HTTP.` };
        }
        return { ok: true, value: { review: catalog.reviewAt(position) } };
      }
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
