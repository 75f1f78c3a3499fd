/**
 * Reading a search query, from a URL's query string (HTTP) or an arguments
 * object (MCP), with the one schema of src/domain/schemas/search.ts. Checks that
 * need the data (is this a service id?) happen here too, so both callers refuse
 * exactly the same inputs with exactly the same issues.
 */
import type { QueryIssue } from '../schemas/errors.ts';
import { SEARCH_PARAMETERS, searchQuerySchema, type SearchQuery } from '../schemas/search.ts';
import { namedIds, type ReviewCatalog } from './review-catalog.ts';
import { emptyValueIssue, issuesFromZod, quoteValue, repeatedParameterIssue, type Parsed } from './query-issues.ts';

const KNOWN = new Set<string>(SEARCH_PARAMETERS);

function unknownServiceIssue(catalog: ReviewCatalog, value: string): QueryIssue {
  const { services } = catalog.business;
  const known = services.length
    ? `the known service ids are ${services.map((service) => service.id).join(', ')} (their names and aliases work too)`
    : 'this business lists no services';
  return { path: 'mentions_service', code: 'unknown_service', message: `mentions_service ${quoteValue(value)} is not a service id, name or alias; ${known}.` };
}

/** A query from JSON-like arguments (numbers as numbers or numeric strings): the MCP tool's entry. */
export function parseSearchArguments(catalog: ReviewCatalog, input: unknown): Parsed<SearchQuery> {
  const args = input ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    return { ok: false, issues: [{ path: '', code: 'invalid_type', message: 'The search arguments must be an object.' }] };
  }
  const parsed = searchQuerySchema.safeParse(args);
  if (!parsed.success) {
    return { ok: false, issues: issuesFromZod(parsed.error, args as Record<string, unknown>, SEARCH_PARAMETERS) };
  }
  const query = parsed.data;
  if (query.mentions_service !== undefined) {
    const ids = namedIds(catalog.index, 'service', query.mentions_service);
    if (ids.length === 0) return { ok: false, issues: [unknownServiceIssue(catalog, query.mentions_service)] };
    // One service: its id, so that every spelling of it is the same query (and the same cached answer).
    if (ids.length === 1) query.mentions_service = ids[0] as string;
  }
  return { ok: true, value: query };
}

/**
 * A query from a URL's query string: a parameter given twice or with an empty value
 * is refused here (a query string can say both; JSON cannot); the rest is the
 * arguments' business, unknown names included.
 */
export function parseSearchParams(catalog: ReviewCatalog, params: URLSearchParams): Parsed<SearchQuery> {
  const counts = new Map<string, number>();
  for (const name of params.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const issues: QueryIssue[] = [];
  const args: Record<string, string> = {};
  for (const [name, times] of counts) {
    const value = params.get(name) as string;
    if (KNOWN.has(name) && times > 1) issues.push(repeatedParameterIssue(name, times));
    else if (KNOWN.has(name) && value.trim() === '') issues.push(emptyValueIssue(name));
    else Object.defineProperty(args, name, { value, enumerable: true, configurable: true, writable: true });
  }
  const parsed = parseSearchArguments(catalog, args);
  if (parsed.ok && issues.length === 0) return parsed;
  return { ok: false, issues: [...issues, ...(parsed.ok ? [] : parsed.issues)] };
}
