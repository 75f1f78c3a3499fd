import { z } from 'zod';
import { businessResultSchema } from '../../../domain/schemas/mcp-tools.ts';
import type { ReviewCatalog } from '../../../domain/catalog/review-catalog.ts';
import { budgetWords, type ResultBudget } from '../result-budget.ts';
import { defineTool, type McpTool } from './define-tool.ts';

export function getBusinessTool(catalog: ReviewCatalog, budget: ResultBudget): McpTool {
  const value = { business: catalog.business, aggregate_rating: catalog.aggregateRating };
  const text = JSON.stringify(value);
  // Counted once per build: a business is a fixed object, which cannot be cut.
  const fits = budget.fits(JSON.stringify({ content: [{ type: 'text', text }], structuredContent: value }));
  return defineTool({
    name: 'get_business',
    title: 'Business profile and rating',
    description:
      `The business these verified reviews are about: name, contact, address, service areas, services and technicians ` +
      `(each with its id, name and aliases), and its aggregate rating (mean stars, review count, count per star). ` +
      `Takes no arguments. Call it to learn the ids that search_reviews accepts, or to answer "how is this business rated?".`,
    input: z.strictObject({}),
    output: businessResultSchema,
    run: () =>
      fits
        ? { ok: true, value, text }
        : { ok: false, message: `The business profile is longer than this server's result budget of ${budgetWords(budget)}; it opens the reviews dataset (/reviews.json) over HTTP.` },
  });
}
