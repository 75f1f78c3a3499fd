import type { APIRoute } from 'astro';
import { toResponse } from '../../../../server/http/answer.ts';
import { methodNotAllowed } from '../../../../server/http/api-error.ts';
import { REVIEW_ENDPOINT_METHODS, sinceAnswer } from '../../../../server/http/review-endpoints.ts';

export const prerender = false;

/** GET /api/reviews/since/{date} (the embedded server answers it directly; see review-endpoints.ts). */
export const GET: APIRoute = ({ params, url, request, site }) =>
  toResponse(
    sinceAnswer(params.date ?? '', {
      url,
      siteUrl: String(site),
      conditional: { ifNoneMatch: request.headers.get('if-none-match'), ifModifiedSince: request.headers.get('if-modified-since') },
    }),
  );

export const HEAD = GET;
export const ALL: APIRoute = ({ request }) => methodNotAllowed(request.method, REVIEW_ENDPOINT_METHODS);
