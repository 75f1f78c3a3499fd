/** Search and incremental sync: both read the served build's catalog, the one every other route reads. */
import { decodePathParameter, malformedQueryIssues } from '../../domain/catalog/percent-encoding.ts';
import { invalidQueryMessage } from '../../domain/catalog/query-issues.ts';
import { searchReviews } from '../../domain/catalog/search.ts';
import { parseSearchParams } from '../../domain/catalog/search-query.ts';
import { parseSinceRequest, reviewsSince } from '../../domain/catalog/since.ts';
import type { QueryIssue } from '../../domain/schemas/errors.ts';
import { catalogOf } from '../builds/served-catalog.ts';
import { servedBuild } from '../builds/served-build.ts';
import { bodyBuffer, partsLength, type Answer } from '../http/answer.ts';
import { answerCache, type AnswerCache, type CachedAnswer } from '../http/answer-cache.ts';
import { apiErrorAnswer } from '../http/api-error.ts';
import { etagFamily, isNotModified, lastModifiedOf, type ConditionalHeaders } from '../http/conditional.ts';
import { CACHE_QUERY, linkHeaderFor } from '../http/public-headers.ts';
import { READ_METHODS, route } from '../http/route.ts';

export interface EndpointRequest {
  url: URL;
  /** The build's SITE_URL, for the OpenAPI link. */
  siteUrl: string;
  conditional?: ConditionalHeaders;
}

/** The headers of an API answer: JSON, CORS, cache, discovery. */
export function publicHeaders({ url, siteUrl }: EndpointRequest): Record<string, string> {
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

/** The 400 of a request whose parameters are wrong: each issue names its parameter and what is allowed. */
export function invalidQuery(request: EndpointRequest, issues: QueryIssue[]): Answer {
  const { Link } = publicHeaders(request);
  return apiErrorAnswer(400, 'invalid_query', invalidQueryMessage(issues), { issues, headers: Link ? { Link } : {} });
}

/**
 * Bytes of search answers kept per served build, by query: the same search (a
 * widget's, an agent's first page) is answered with the bytes made the first time.
 */
export const SEARCH_CACHE_BYTES = 8 * 1024 * 1024;
const SEARCH_ANSWERS = Symbol('search-answers');

/** GET /api/reviews/search: the reviews matching every given filter, newest first, a page at a time. */
function searchAnswer(request: EndpointRequest): Answer {
  const malformed = malformedQueryIssues(request.url.search);
  if (malformed.length) return invalidQuery(request, malformed);
  const build = servedBuild();
  const catalog = catalogOf(build);
  const parsed = parseSearchParams(catalog, request.url.searchParams);
  if (!parsed.ok) return invalidQuery(request, parsed.issues);
  const answers = build.memo<AnswerCache>(SEARCH_ANSWERS, () => answerCache(SEARCH_CACHE_BYTES));
  // The answer is made of the build, the query as parsed, and the path (its Link header).
  const key = `${request.url.pathname} ${JSON.stringify(parsed.value)}`;
  const kept = answers.get(key);
  if (kept) return kept;
  const answer: CachedAnswer = { status: 200, headers: publicHeaders(request), body: { bytes: [bodyBuffer(searchReviews(catalog, parsed.value).json())] } };
  answers.set(key, answer);
  return answer;
}

/**
 * Bytes of since answers kept per served build, by request: every client syncing from
 * the same date gets the same document, which at 100,000 reviews is megabytes (a year:
 * 16.9 MB) and took 70 ms of CPU to put together each time.
 */
export const SINCE_CACHE_BYTES = 32 * 1024 * 1024;
const SINCE_ANSWERS = Symbol('since-answers');

/** GET /api/reviews/since/{date}: every review on or after `date`, oldest first, with validators and 304s. */
function sinceAnswer(date: string, request: EndpointRequest): Answer {
  const malformed = malformedQueryIssues(request.url.search);
  if (malformed.length) return invalidQuery(request, malformed);
  const parsed = parseSinceRequest(date, request.url.searchParams);
  if (!parsed.ok) return invalidQuery(request, parsed.issues);
  const build = servedBuild();
  const answers = build.memo<AnswerCache>(SINCE_ANSWERS, () => answerCache(SINCE_CACHE_BYTES));
  // The answer is made of the build, the request as parsed, and the path (its Link header).
  const key = `${request.url.pathname} ${JSON.stringify(parsed.value)}`;
  let answer: Answer | undefined = answers.get(key);
  if (!answer) {
    const listing = reviewsSince(catalogOf(build), parsed.value.date, undefined, parsed.value.fields);
    const lastModified = lastModifiedOf(listing.lastModified);
    const headers: Record<string, string> = { ...publicHeaders(request), ETag: listing.etag() };
    if (lastModified) headers['Last-Modified'] = lastModified.toUTCString();
    const parts = listing.parts();
    // A listing over the budget (every review: 143 MB at 100,000) is never joined into one
    // Buffer: it is written a chunk at a time from its parts, as made for each request.
    if (partsLength(parts) > SINCE_CACHE_BYTES) answer = { status: 200, headers, body: { bytes: parts } };
    else {
      const kept: CachedAnswer = { status: 200, headers, body: { bytes: [bodyBuffer(parts)] } };
      answers.set(key, kept);
      answer = kept;
    }
  }
  const { ETag: etag, 'Last-Modified': modified } = answer.headers;
  if (isNotModified(request.conditional ?? {}, { etags: etagFamily(etag as string), lastModified: modified === undefined ? undefined : new Date(modified) })) {
    const { 'Content-Type': _type, ...validators } = answer.headers;
    return { status: 304, headers: validators };
  }
  return answer;
}

/** The routes of the table (see src/server/app/routes.ts): they name a malformed query's parameter themselves. */
export const searchRoute = route({
  name: 'search',
  path: '/api/reviews/search',
  methods: READ_METHODS,
  malformed: 'named',
  compress: 'if-accepted',
  handle: ({ url }) => searchAnswer({ url, siteUrl: servedBuild().manifest.siteUrl }),
});

export const sinceRoute = route({
  name: 'since',
  path: '/api/reviews/since/:date',
  methods: READ_METHODS,
  malformed: 'named',
  compress: 'if-accepted',
  handle({ url, params, req }) {
    const request = { url, siteUrl: servedBuild().manifest.siteUrl };
    const date = decodePathParameter('date', params.date as string);
    if (!date.ok) return invalidQuery(request, [date.issue]);
    return sinceAnswer(date.value, { ...request, conditional: { ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] } });
  },
});
