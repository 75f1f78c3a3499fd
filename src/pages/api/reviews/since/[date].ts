import type { APIRoute } from 'astro';
import { parseSinceRequest, reviewsSince } from '../../../../domain/catalog/since.ts';
import { isNotModified, lastModifiedOf } from '../../../../server/http/conditional.ts';
import { getCatalog } from '../../../../server/runtime/catalog.ts';
import { invalidQuery, jsonResponse, publicHeaders, wrongMethod } from '../_responses.ts';

export const prerender = false;

/** GET /api/reviews/since/{date}: every review dated on or after `date`, oldest first, with validators. */
export const GET: APIRoute = ({ params, url, request, site }) => {
  const parsed = parseSinceRequest(params.date ?? '', url.searchParams);
  if (!parsed.ok) return invalidQuery(parsed.issues, site, url.pathname);
  const listing = reviewsSince(getCatalog(), parsed.value);
  const lastModified = lastModifiedOf(listing.lastModified);
  const headers = { ...publicHeaders(site, url.pathname), ETag: listing.etag(), Vary: 'Accept-Encoding' };
  if (lastModified) Object.assign(headers, { 'Last-Modified': lastModified.toUTCString() });
  const conditions = { ifNoneMatch: request.headers.get('if-none-match'), ifModifiedSince: request.headers.get('if-modified-since') };
  if (isNotModified(conditions, { etags: [headers.ETag], lastModified })) return new Response(null, { status: 304, headers });
  return jsonResponse(listing.json(), headers);
};

export const HEAD = GET;
export const ALL: APIRoute = ({ request }) => wrongMethod(request.method);
