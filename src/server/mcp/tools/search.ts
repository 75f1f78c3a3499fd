/**
 * The two listing tools. Both run the very code of the HTTP routes (parse, search,
 * since listing in src/domain/catalog), so that search_reviews answers exactly
 * the body of GET /api/reviews/search for the same parameters.
 */
import type { z } from 'zod';
import type { ReviewCatalog } from '../../../domain/catalog/review-catalog.ts';
import { searchReviews } from '../../../domain/catalog/search.ts';
import { parseSearchArguments } from '../../../domain/catalog/search-query.ts';
import { reviewsSince } from '../../../domain/catalog/since.ts';
import { reviewPage } from '../../../domain/catalog/review-page.ts';
import { tokenPageBudget } from '../../../domain/catalog/review-tokens.ts';
import { sinceArgumentsSchema, sinceResultSchema, SINCE_LIMIT_DEFAULT } from '../../../domain/schemas/mcp-tools.ts';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, searchQuerySchema, searchResponseSchema } from '../../../domain/schemas/search.ts';
import { budgetWords, type ResultBudget } from '../result-budget.ts';
import { defineTool, type JsonObject, type McpTool } from './define-tool.ts';
import { serviceAreasText, servicesText, techniciansText } from './business-names.ts';

type SinceResult = z.output<typeof sinceResultSchema>;

function property(schema: JsonObject, name: string): JsonObject | undefined {
  return (schema.properties as Record<string, JsonObject> | undefined)?.[name];
}

/** The sentence that follows a page cut short by the result budget. */
export function cutPageNote(count: number, limit: number, nextOffset: number, budget: ResultBudget): string {
  return (
    `This page holds ${count} of the ${limit} reviews asked for, to keep the result under ${budgetWords(budget)}; ` +
    `call again with offset ${nextOffset} for the next ones, or name fewer fields (e.g. fields "id,rating,date,title,text") to get more at a time.`
  );
}

/** What the listing tools' descriptions say of the budget. */
function pagingWords(budget: ResultBudget): string {
  return `A page that would pass ${budgetWords(budget)} comes back shorter, with next_offset to go on (name fewer fields to get more at a time). `;
}

export function searchReviewsTool(catalog: ReviewCatalog, budget: ResultBudget): McpTool {
  const { business } = catalog;
  const pageBudget = tokenPageBudget(catalog, budget.contentTokens);
  const serviceIds = business.services.map((service) => service.id);
  return defineTool({
    name: 'search_reviews',
    title: 'Search reviews',
    description:
      'Find verified reviews by star rating, date range, words in the title or text, a technician or a service. ' +
      'Every filter is optional and they combine with AND. Results come newest first (date descending, then id), ' +
      `limit at a time (default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX}) from offset; total counts every match. ` +
      'Returns {total, count, offset, limit, reviews}, the same as GET /api/reviews/search. ' +
      pagingWords(budget) +
      `Technicians (mentions_technician takes an id, name or alias): ${techniciansText(business)} ` +
      `Services (mentions_service takes an id, name or alias): ${servicesText(business)} ` +
      `Service areas (in each review's service_area): ${serviceAreasText(business)} ` +
      'To compare technicians on one kind of work (who gets the best reviews for gutters?), search with mentions_service and ' +
      'each mentions_technician in turn and compare the ratings, or read get_insights section entities for overall averages.',
    input: searchQuerySchema,
    output: searchResponseSchema,
    // The advertised schema shows the ids this build knows, as examples: names and aliases are accepted too; the search checks them (and lists the ids on a miss).
    refineInputSchema: (schema) => {
      const service = property(schema, 'mentions_service');
      if (service && serviceIds.length > 0) service.examples = serviceIds;
      const technician = property(schema, 'mentions_technician');
      if (technician && business.technicians.length > 0) technician.examples = business.technicians.slice(0, 20).map((t) => t.name);
    },
    parse: (args) => parseSearchArguments(catalog, args),
    whenTooLarge: 'Ask for fewer reviews at a time (limit) and page with offset.',
    run: (query) => {
      const result = searchReviews(catalog, query, pageBudget);
      const { count, limit, next_offset: next } = result.counts;
      const note = next === undefined ? undefined : cutPageNote(count, limit, next, budget);
      // The object only when asked for (the SDK's path): the direct answer is written from the bytes.
      return {
        ok: true,
        get value() {
          return result.response;
        },
        json: result.json,
        jsonLiteral: result.jsonLiteral,
        note,
      };
    },
  });
}

export function getReviewsSinceTool(catalog: ReviewCatalog, budget: ResultBudget): McpTool {
  const pageBudget = tokenPageBudget(catalog, budget.contentTokens);
  return defineTool({
    name: 'get_reviews_since',
    title: 'Reviews since a date',
    description:
      'Every verified review dated on or after a day, oldest first (date ascending, then id), so that a client keeping ' +
      `its own copy can apply them in order: the MCP form of GET /api/reviews/since/{date}. Pages of limit (default ${SINCE_LIMIT_DEFAULT}, ` +
      `at most ${SEARCH_LIMIT_MAX}) from offset; total counts them all, so fetch again with offset + count while it is below total. ` +
      'Returns {since, total, count, offset, limit, reviews}. Use it for "what is new since <date>?". ' +
      pagingWords(budget).trimEnd(),
    input: sinceArgumentsSchema,
    output: sinceResultSchema,
    whenTooLarge: 'Ask for fewer reviews at a time (limit) and page with offset.',
    run: ({ date, limit, offset, fields }) => {
      const listing = reviewsSince(catalog, date, { offset, limit });
      const page = reviewPage(catalog, listing.positions, { fields, budget: pageBudget });
      const cut = page.count < listing.positions.length;
      const next = offset + page.count;
      const value = { since: date, total: listing.total, count: page.count, offset, limit, ...(cut ? { next_offset: next } : {}), reviews: page.reviews };
      return { ok: true, value: value as SinceResult, note: cut ? cutPageNote(page.count, limit, next, budget) : undefined };
    },
  });
}
