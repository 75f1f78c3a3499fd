/** The server's tools, in the order tools/list gives them. */
import type { ReviewCatalog } from '../../../domain/catalog/review-catalog.ts';
import type { PublishedData } from '../../builds/published-data.ts';
import { getBusinessTool } from './business.ts';
import { getInsightsTool } from './insights.ts';
import { getReviewTool } from './review.ts';
import { getReviewsSinceTool, searchReviewsTool } from './search.ts';
import { toolSet, type ToolSet } from './tool-set.ts';

export const RESULT_MAX_CHARS_DEFAULT = 60_000;

/** `maxChars`: the listing tools' result budget (MCP_RESULT_MAX_CHARS), in characters of review JSON. */
export function reviewTools(catalog: ReviewCatalog, published: PublishedData, maxChars: number = RESULT_MAX_CHARS_DEFAULT): ToolSet {
  return toolSet([
    getBusinessTool(catalog),
    searchReviewsTool(catalog, maxChars),
    getReviewsSinceTool(catalog, maxChars),
    getReviewTool(catalog),
    getInsightsTool(published.insights),
  ]);
}
