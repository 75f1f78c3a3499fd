/** The server's tools, in the order tools/list gives them. */
import type { ReviewCatalog } from '../../../domain/catalog/catalog.ts';
import type { PublishedData } from '../../runtime/published-data.ts';
import { getBusinessTool } from './business.ts';
import { getInsightsTool } from './insights.ts';
import { getReviewTool } from './review.ts';
import { getReviewsSinceTool, searchReviewsTool } from './search.ts';
import { toolSet, type ToolSet } from './tool-set.ts';

export function reviewTools(catalog: ReviewCatalog, published: PublishedData): ToolSet {
  return toolSet([
    getBusinessTool(published.dataset),
    searchReviewsTool(catalog),
    getReviewsSinceTool(catalog),
    getReviewTool(catalog),
    getInsightsTool(published.insights),
  ]);
}
