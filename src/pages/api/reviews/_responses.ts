/** Responses shared by the search and sync routes (a leading underscore keeps this file from being a route). */
import { invalidQueryMessage } from '../../../domain/catalog/query-issues.ts';
import type { QueryIssue } from '../../../domain/schemas/errors.ts';
import { apiError, methodNotAllowed } from '../../../server/http/api-error.ts';
import { CACHE_QUERY, linkHeaderFor } from '../../../server/http/public-headers.ts';

export const ALLOWED_METHODS = ['GET', 'HEAD'] as const;

/** Headers of every answer of these routes: CORS, discovery of the OpenAPI document, caching. */
export function publicHeaders(site: URL | undefined, pathname: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Cache-Control': CACHE_QUERY,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'ETag, Last-Modified, Link',
    'X-Content-Type-Options': 'nosniff',
  };
  const link = site ? linkHeaderFor(pathname, String(site)) : undefined;
  if (link) headers.Link = link;
  return headers;
}

export function jsonResponse(body: string, headers: Record<string, string>): Response {
  return new Response(body, { headers: { ...headers, 'Content-Type': 'application/json' } });
}

export function invalidQuery(issues: QueryIssue[], site: URL | undefined, pathname: string): Response {
  const { Link } = publicHeaders(site, pathname);
  return apiError(400, 'invalid_query', invalidQueryMessage(issues), { issues, headers: Link ? { Link } : {} });
}

export function wrongMethod(method: string): Response {
  return methodNotAllowed(method, ALLOWED_METHODS);
}
