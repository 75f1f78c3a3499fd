import type { APIRoute } from 'astro';
import { searchReviews } from '../../../domain/catalog/search.ts';
import { parseSearchParams } from '../../../domain/catalog/search-query.ts';
import { getCatalog } from '../../../server/runtime/catalog.ts';
import { invalidQuery, jsonResponse, publicHeaders, wrongMethod } from './_responses.ts';

export const prerender = false;

/** GET /api/reviews/search: the reviews that match every given filter, newest first, a page at a time. */
export const GET: APIRoute = ({ url, site }) => {
  const catalog = getCatalog();
  const parsed = parseSearchParams(catalog, url.searchParams);
  if (!parsed.ok) return invalidQuery(parsed.issues, site, url.pathname);
  return jsonResponse(searchReviews(catalog, parsed.value).json(), publicHeaders(site, url.pathname));
};

// Astro would send HEAD to ALL (a 405) before falling back to GET.
export const HEAD = GET;
export const ALL: APIRoute = ({ request }) => wrongMethod(request.method);
