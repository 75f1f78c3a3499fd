import type { APIRoute } from 'astro';
import { toResponse } from '../../../server/http/answer.ts';
import { methodNotAllowed } from '../../../server/http/api-error.ts';
import { REVIEW_ENDPOINT_METHODS, searchAnswer } from '../../../server/http/review-endpoints.ts';

export const prerender = false;

/** GET /api/reviews/search (the embedded server answers it directly; see review-endpoints.ts). */
export const GET: APIRoute = ({ url, site }) => toResponse(searchAnswer({ url, siteUrl: String(site) }));

// Astro would send HEAD to ALL (a 405) before falling back to GET.
export const HEAD = GET;
export const ALL: APIRoute = ({ request }) => methodNotAllowed(request.method, REVIEW_ENDPOINT_METHODS);
