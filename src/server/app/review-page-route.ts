/**
 * GET /reviews/{id}: one review's page for people, rendered by Astro
 * (src/pages/reviews/[id].astro) from the served catalog, once per build: a page is
 * kept by id while the build is served (within a byte budget), and its strong ETag is
 * made from what the page is made of, without rendering it, so a conditional request
 * gets its 304 at the cost of a hash. An id no review has, removed or mistyped or
 * with odd characters, gets the page that says so (404) with a link to the browser.
 */
import { hash } from 'node:crypto';
import type { CatalogEntry, ReviewCatalog } from '../../domain/catalog/review-catalog.ts';
import { idSchema } from '../../domain/content/schema.ts';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import { catalogOf } from '../builds/served-catalog.ts';
import { servedBuild } from '../builds/served-build.ts';
import type { Answer } from '../http/answer.ts';
import { answerCache, type AnswerCache } from '../http/answer-cache.ts';
import { etagFamily, isNotModified, lastModifiedOf } from '../http/conditional.ts';
import { CACHE_DOCUMENT } from '../http/public-headers.ts';
import { READ_METHODS, route } from '../http/route.ts';
import type { Exchange, Route } from '../http/pipeline.ts';
import { render, type PageRenderer } from './page-route.ts';

/** Bytes of review pages kept per build: about a thousand pages (one is 8 to 12 KB). */
export const REVIEW_PAGES_CACHE_BYTES = 12 * 1024 * 1024;
const REVIEW_PAGES = Symbol('review-pages');
const PAGE_COMMON = Symbol('review-page-common');

/** The longest id looked up: ids are file names, and nothing longer is one. */
const MAX_ID_LENGTH = 200;

/** The id a path segment names, if it can name a review at all. */
function requestedId(raw: string): string | undefined {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return id.length <= MAX_ID_LENGTH && idSchema.safeParse(id).success ? id : undefined;
}

/**
 * What every review page of a build shares: the code that renders it, the site's
 * address, the business and its aggregate rating (in the page and its JSON-LD).
 */
function commonDigest(build: LoadedBuild, catalog: ReviewCatalog, runningCode: string | undefined): string {
  return build.memo(PAGE_COMMON, () =>
    hash('sha256', JSON.stringify([runningCode ?? build.id, build.manifest.siteUrl, catalog.business, catalog.aggregateRating])),
  );
}

/** The page's strong ETag: what it shows is the review, its neighbours' ids (the previous and next links) and the common part. */
function pageEtag(common: string, catalog: ReviewCatalog, position: number): string {
  const { entries } = catalog;
  const entry = entries[position] as CatalogEntry;
  const digest = hash('sha256', [common, entry.digest, entries[position - 1]?.id ?? '', entries[position + 1]?.id ?? ''].join('\n'));
  return `"${digest.slice(0, 32)}"`;
}

function reviewPageAnswers(renderer: PageRenderer, runningCode: string | undefined, cacheBytes: number): Route['handle'] {
  return async (exchange: Exchange): Promise<Answer> => {
    const build = servedBuild();
    const catalog = catalogOf(build);
    const id = requestedId(exchange.params.id as string);
    const position = id === undefined ? undefined : catalog.positionOf(id);
    if (id === undefined || position === undefined) {
      // A path Astro routes to the review page, whatever the characters asked for.
      return render(renderer, exchange, { path: '/reviews/-', locals: { reviewPosition: undefined } });
    }
    const etag = pageEtag(commonDigest(build, catalog, runningCode), catalog, position);
    const lastModified = lastModifiedOf(catalog.updated);
    const validators: Record<string, string> = { ETag: etag, 'Cache-Control': CACHE_DOCUMENT };
    if (lastModified) validators['Last-Modified'] = lastModified.toUTCString();
    const { req } = exchange;
    if (isNotModified({ ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] }, { etags: etagFamily(etag), lastModified })) {
      return { status: 304, headers: { ...validators, Vary: 'Accept-Encoding' } };
    }
    const pages = build.memo<AnswerCache>(REVIEW_PAGES, () => answerCache(cacheBytes));
    const kept = pages.get(id);
    if (kept) return kept;
    const rendered = await render(renderer, exchange, { path: `/reviews/${id}`, locals: { reviewPosition: position } });
    if (rendered.status !== 200) return rendered;
    const answer = { ...rendered, headers: { ...rendered.headers, ...validators } };
    pages.set(id, answer);
    return answer;
  };
}

export function reviewPageRoute(renderer: PageRenderer, runningCode: string | undefined, cacheBytes = REVIEW_PAGES_CACHE_BYTES): Route {
  return route({
    name: 'review page',
    path: '/reviews/:id',
    methods: READ_METHODS,
    // A path that does not decode names no review: the page says so, it is no API error.
    malformed: 'named',
    compress: 'always',
    handle: reviewPageAnswers(renderer, runningCode, cacheBytes),
  });
}
