/** The server's tools, in the order tools/list gives them. */
import type { ReviewCatalog } from '../../../domain/catalog/review-catalog.ts';
import type { PublishedData } from '../../builds/published-data.ts';
import type { ResultBudget } from '../result-budget.ts';
import { getBusinessTool } from './business.ts';
import { getInsightsTool } from './insights.ts';
import { getReviewTool } from './review.ts';
import { getReviewsSinceTool, searchReviewsTool } from './search.ts';
import { toolSet, type ToolSet } from './tool-set.ts';

/** `budget`: what one result may hold (MCP_RESULT_MAX_TOKENS); a page past it is cut, a document offered in parts. */
export function reviewTools(catalog: ReviewCatalog, published: PublishedData, budget: ResultBudget): ToolSet {
  return toolSet([
    getBusinessTool(catalog, budget),
    searchReviewsTool(catalog, budget),
    getReviewsSinceTool(catalog, budget),
    getReviewTool(catalog, budget),
    getInsightsTool(published.insights, budget),
  ]);
}
