/**
 * Reading the widget's and the embed's parameters (`/api/widget?…`, `/embed?…`, the
 * attributes of `<reviews-widget>`): `limit` (1 to 20, default 5) and `sort`
 * (newest or best) are the widget's own; the filters go to the search API's parser
 * as they are, so both accept and refuse the same filters with the same words.
 */
import type { QueryIssue } from '../schemas/errors.ts';
import type { SearchQuery } from '../schemas/search.ts';
import { WIDGET_FILTERS, WIDGET_LIMIT_DEFAULT, WIDGET_LIMIT_MAX, WIDGET_PARAMETERS, WIDGET_SORTS, type WidgetSort } from '../schemas/widget.ts';
import type { ReviewCatalog } from '../catalog/review-catalog.ts';
import { emptyValueIssue, quoteValue, repeatedParameterIssue, unknownParameterIssues, type Parsed } from '../catalog/query-issues.ts';
import { parseSearchParams } from '../catalog/search-query.ts';

export type WidgetFilter = (typeof WIDGET_FILTERS)[number];

export interface WidgetQuery {
  /** The search to run: the filters, `limit`, offset 0. */
  readonly search: SearchQuery;
  readonly sort: WidgetSort;
  /** The filters as given, for the link to the review browser showing the same reviews. */
  readonly filters: Partial<Record<WidgetFilter, string>>;
}

const LIMIT_TEXT = /^\s*\d{1,6}\s*$/;

function limitIssue(value: string): QueryIssue | undefined {
  const number = LIMIT_TEXT.test(value) ? Number(value) : NaN;
  if (number >= 1 && number <= WIDGET_LIMIT_MAX) return undefined;
  const code = Number.isNaN(number) ? 'invalid_type' : number < 1 ? 'too_small' : 'too_big';
  return { path: 'limit', code, message: `limit must be a whole number from 1 to ${WIDGET_LIMIT_MAX}; got ${quoteValue(value)}.` };
}

function sortIssue(value: string): QueryIssue | undefined {
  if ((WIDGET_SORTS as readonly string[]).includes(value.trim())) return undefined;
  return { path: 'sort', code: 'invalid_value', message: `sort must be ${WIDGET_SORTS.join(' or ')}; got ${quoteValue(value)}.` };
}

/** The key of a query: two requests that show the same reviews the same way have the same key. */
export function widgetQueryKey(query: WidgetQuery): string {
  return JSON.stringify([query.sort, query.search]);
}

export function parseWidgetParams(catalog: ReviewCatalog, params: URLSearchParams): Parsed<WidgetQuery> {
  const counts = new Map<string, number>();
  for (const name of params.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const issues: QueryIssue[] = unknownParameterIssues(
    [...counts.keys()].filter((name) => !WIDGET_PARAMETERS.includes(name)),
    WIDGET_PARAMETERS,
  );
  const given = new Map<string, string>();
  for (const name of WIDGET_PARAMETERS) {
    const times = counts.get(name) ?? 0;
    const value = params.get(name);
    if (value === null) continue;
    if (times > 1) issues.push(repeatedParameterIssue(name, times));
    else if (value.trim() === '') issues.push(emptyValueIssue(name));
    else given.set(name, value);
  }
  const limit = given.get('limit') ?? String(WIDGET_LIMIT_DEFAULT);
  const sort = given.get('sort') ?? 'newest';
  issues.push(...[limitIssue(limit), sortIssue(sort)].filter((issue) => issue !== undefined));

  const filters: Partial<Record<WidgetFilter, string>> = {};
  const searchParams = new URLSearchParams();
  for (const name of WIDGET_FILTERS) {
    const value = given.get(name);
    if (value === undefined) continue;
    filters[name] = value;
    searchParams.set(name, value);
  }
  // A limit the widget refused is reported once, as the widget's; the search still checks the filters.
  searchParams.set('limit', issues.some((issue) => issue.path === 'limit') ? '1' : limit);
  const parsed = parseSearchParams(catalog, searchParams);
  if (!parsed.ok) issues.push(...parsed.issues);
  if (!parsed.ok || issues.length) return { ok: false, issues };
  return { ok: true, value: { search: parsed.value, sort: sort.trim() as WidgetSort, filters } };
}
