/**
 * Search and incremental sync as plain answers (see answer.ts): the route files
 * under src/pages/api/reviews wrap them for Astro, and the server answers the
 * same paths directly (`reviewEndpointFor`), because on these hot paths Astro's
 * per-request machinery costs several times the search itself.
 */
import { decodePathParameter, malformedQueryIssues } from '../../domain/catalog/percent-encoding.ts';
import { invalidQueryMessage } from '../../domain/catalog/query-issues.ts';
import { searchReviews } from '../../domain/catalog/search.ts';
import { parseSearchParams } from '../../domain/catalog/search-query.ts';
import { parseSinceRequest, reviewsSince } from '../../domain/catalog/since.ts';
import type { QueryIssue } from '../../domain/schemas/errors.ts';
import { getCatalog } from '../runtime/catalog.ts';
import type { Answer } from './answer.ts';
import { apiErrorAnswer } from './api-error.ts';
import { etagFamily, isNotModified, lastModifiedOf, type ConditionalHeaders } from './conditional.ts';
import { CACHE_QUERY, linkHeaderFor } from './public-headers.ts';

export const REVIEW_ENDPOINT_METHODS = ['GET', 'HEAD'] as const;

export interface EndpointRequest {
  url: URL;
  /** The build's SITE_URL, for the OpenAPI link. */
  siteUrl: string;
  conditional?: ConditionalHeaders;
}

function publicHeaders({ url, siteUrl }: EndpointRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Cache-Control': CACHE_QUERY,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'ETag, Last-Modified, Link',
    'X-Content-Type-Options': 'nosniff',
    // Compressed for clients that ask (server.ts).
    Vary: 'Accept-Encoding',
  };
  const link = linkHeaderFor(url.pathname, siteUrl);
  if (link) headers.Link = link;
  return headers;
}

function invalidQuery(request: EndpointRequest, issues: QueryIssue[]): Answer {
  const { Link } = publicHeaders(request);
  return apiErrorAnswer(400, 'invalid_query', invalidQueryMessage(issues), { issues, headers: Link ? { Link } : {} });
}

/** GET /api/reviews/search: the reviews matching every given filter, newest first, a page at a time. */
export function searchAnswer(request: EndpointRequest): Answer {
  const malformed = malformedQueryIssues(request.url.search);
  if (malformed.length) return invalidQuery(request, malformed);
  const catalog = getCatalog();
  const parsed = parseSearchParams(catalog, request.url.searchParams);
  if (!parsed.ok) return invalidQuery(request, parsed.issues);
  return { status: 200, headers: publicHeaders(request), body: { bytes: searchReviews(catalog, parsed.value).json() } };
}

/** GET /api/reviews/since/{date}: every review on or after `date`, oldest first, with validators and 304s. */
export function sinceAnswer(date: string, request: EndpointRequest): Answer {
  const malformed = malformedQueryIssues(request.url.search);
  if (malformed.length) return invalidQuery(request, malformed);
  const parsed = parseSinceRequest(date, request.url.searchParams);
  if (!parsed.ok) return invalidQuery(request, parsed.issues);
  const listing = reviewsSince(getCatalog(), parsed.value.date, undefined, parsed.value.fields);
  const lastModified = lastModifiedOf(listing.lastModified);
  const etag = listing.etag();
  const headers: Record<string, string> = { ...publicHeaders(request), ETag: etag };
  if (lastModified) headers['Last-Modified'] = lastModified.toUTCString();
  if (isNotModified(request.conditional ?? {}, { etags: etagFamily(etag), lastModified })) {
    const { 'Content-Type': _type, ...validators } = headers;
    return { status: 304, headers: validators };
  }
  return { status: 200, headers, body: { bytes: listing.parts() } };
}

const SINCE_PATH = /^\/api\/reviews\/since\/([^/]+)\/?$/;

/**
 * The answer for a GET or HEAD on one of these paths (matched as Astro matches
 * the route files), or undefined to let Astro route the request.
 */
export function reviewEndpointFor(method: string | undefined, pathname: string): ((request: EndpointRequest) => Answer) | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (pathname === '/api/reviews/search' || pathname === '/api/reviews/search/') return searchAnswer;
  const since = SINCE_PATH.exec(pathname);
  if (!since) return undefined;
  const date = decodePathParameter('date', since[1] as string);
  if (!date.ok) return (request) => invalidQuery(request, [date.issue]);
  return (request) => sinceAnswer(date.value, request);
}
