/**
 * The review browser's request (`GET /reviews`): the search API's filters plus a page
 * number, as a form sends them. It reads them with the API's own parser, so the page
 * and `/api/reviews/search` accept and refuse the same filters with the same words;
 * what differs is what a form does: it sends every field, so an empty one means "any".
 */
import type { QueryIssue } from '../schemas/errors.ts';
import type { SearchQuery } from '../schemas/search.ts';
import type { Review } from '../schemas/review.ts';
import { namedIds, type ReviewCatalog } from './review-catalog.ts';
import { malformedQueryIssues } from './percent-encoding.ts';
import { quoteValue, repeatedParameterIssue, SUGGESTED_NAMES, unknownParameterIssue } from './query-issues.ts';
import { searchReviews } from './search.ts';
import { parseSearchParams } from './search-query.ts';

/** Reviews per page of the browser. */
export const BROWSE_PAGE_SIZE = 20;

/** The filters, in the order the form shows them and the URLs list them. */
export const BROWSE_FILTERS = ['query', 'rating', 'min_rating', 'since', 'until', 'mentions_technician', 'mentions_service'] as const;
export type BrowseFilter = (typeof BROWSE_FILTERS)[number];
export const BROWSE_PARAMETERS: readonly string[] = [...BROWSE_FILTERS, 'page'];

/** Page numbers past this are refused: the offset must stay an exact integer. */
const MAX_PAGE = 1_000_000;

export interface BrowseRequest {
  /** The filters given (non-empty), as typed: they refill the form and make the links. */
  readonly filters: Partial<Record<BrowseFilter, string>>;
  readonly page: number;
  /** The search to run, unless something was wrong. */
  readonly query?: SearchQuery;
  /** What was wrong, one issue per parameter, in the API's words. */
  readonly issues: readonly QueryIssue[];
}

function pageIssue(value: string): QueryIssue {
  return { path: 'page', code: 'invalid_page', message: `page must be a whole number from 1 to ${MAX_PAGE}; got ${quoteValue(value)}.` };
}

export function parseBrowseParams(catalog: ReviewCatalog, params: URLSearchParams): BrowseRequest {
  const filters: Partial<Record<BrowseFilter, string>> = {};
  const issues: QueryIssue[] = [];
  const searchParams = new URLSearchParams();
  const seenUnknown = new Set<string>();
  let page = 1;
  const pageTimes = params.getAll('page').length;
  if (pageTimes > 1) issues.push(repeatedParameterIssue('page', pageTimes));
  for (const [name, value] of params) {
    if ((BROWSE_FILTERS as readonly string[]).includes(name)) {
      if (value.trim() === '') continue;
      filters[name as BrowseFilter] ??= value;
      searchParams.append(name, value);
    } else if (name === 'page') {
      if (pageTimes > 1 || value.trim() === '') continue;
      const number = /^\s*\d{1,7}\s*$/.test(value) ? Number(value) : NaN;
      if (number >= 1 && number <= MAX_PAGE) page = number;
      else issues.push(pageIssue(value));
    } else if (!seenUnknown.has(name)) {
      seenUnknown.add(name);
      issues.push(unknownParameterIssue(name, BROWSE_PARAMETERS, seenUnknown.size <= SUGGESTED_NAMES));
    }
  }
  searchParams.set('limit', String(BROWSE_PAGE_SIZE));
  searchParams.set('offset', String((page - 1) * BROWSE_PAGE_SIZE));
  const parsed = parseSearchParams(catalog, searchParams);
  if (!parsed.ok) issues.push(...parsed.issues);
  return issues.length || !parsed.ok ? { filters, page, issues } : { filters, page, query: parsed.value, issues };
}

/** The browser's URL for these filters and page, parameters in a fixed order: one URL per view, to share or bookmark. */
export function browseUrl(basePath: string, filters: Partial<Record<BrowseFilter, string>>, page = 1): string {
  const params = new URLSearchParams();
  for (const name of BROWSE_FILTERS) {
    const value = filters[name];
    if (value !== undefined) params.set(name, value);
  }
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `${basePath}?${query}` : basePath;
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / BROWSE_PAGE_SIZE));
}

/** The filters in words, for the line that says what is shown ("5 stars, mentions Zoë"). */
export function describeFilters(catalog: ReviewCatalog, filters: Partial<Record<BrowseFilter, string>>): string[] {
  const { business } = catalog;
  const words: string[] = [];
  if (filters.query) words.push(`containing “${filters.query.trim()}”`);
  if (filters.rating) words.push(`rated ${filters.rating} ${filters.rating.trim() === '1' ? 'star' : 'stars'}`);
  if (filters.min_rating) words.push(`rated at least ${filters.min_rating}`);
  if (filters.since) words.push(`from ${filters.since}`);
  if (filters.until) words.push(`until ${filters.until}`);
  if (filters.mentions_technician) {
    const wanted = filters.mentions_technician.trim();
    const ids = namedIds(catalog.index, 'technician', wanted);
    const names = business.technicians.filter((t) => ids.includes(t.id)).map((t) => t.name);
    words.push(`mentioning ${names.length ? names.join(' or ') : wanted}`);
  }
  if (filters.mentions_service) {
    const wanted = filters.mentions_service.trim();
    const ids = namedIds(catalog.index, 'service', wanted);
    const names = business.services.filter((s) => ids.includes(s.id)).map((s) => s.name);
    words.push(`about ${names.length ? names.join(' or ') : wanted}`);
  }
  return words;
}

/** Everything the page shows: the reviews of one page, the counts, the links, or what was wrong. */
export interface BrowseView {
  /** 200; 400 when a parameter is wrong; 404 for a page past the last one. */
  readonly status: 200 | 400 | 404;
  readonly filters: Partial<Record<BrowseFilter, string>>;
  readonly page: number;
  readonly pages: number;
  /** Every review the filters match (0 when something was wrong). */
  readonly total: number;
  /** This page's reviews, newest first. */
  readonly reviews: readonly Review[];
  readonly issues: readonly QueryIssue[];
  /** The filters in words. */
  readonly described: readonly string[];
}

export function browseReviews(catalog: ReviewCatalog, params: URLSearchParams, rawQuery = ''): BrowseView {
  const request = parseBrowseParams(catalog, params);
  const { filters, page } = request;
  const described = describeFilters(catalog, filters);
  // URLSearchParams keeps a stray % literally; the page names it as the API does, instead of guessing.
  const malformed = malformedQueryIssues(rawQuery);
  if (!request.query || malformed.length > 0) {
    return { status: 400, filters, page, pages: 1, total: 0, reviews: [], issues: [...malformed, ...request.issues], described };
  }
  const { response } = searchReviews(catalog, request.query);
  const pages = pageCount(response.total);
  if (page > pages) {
    const issue: QueryIssue = {
      path: 'page',
      code: 'page_out_of_range',
      message: `page ${page} is past the last page: these filters give ${pages === 1 ? 'one page' : `${pages} pages`}.`,
    };
    return { status: 404, filters, page, pages, total: response.total, reviews: [], issues: [issue], described };
  }
  // The browse query names no fields: its reviews are whole.
  return { status: 200, filters, page, pages, total: response.total, reviews: response.reviews as Review[], issues: [], described };
}
