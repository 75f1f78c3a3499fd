/**
 * The on-demand pages (src/pages, `prerender = false`) rendered by Astro's handler,
 * the last step of the server's pipeline. The handler is that of the Astro build the
 * server started on (Astro builds it in middleware mode, so it serves no files of
 * its own); what a page needs of the served build comes in `locals` (src/env.d.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { catalogOf, servedCatalog } from '../builds/served-catalog.ts';
import { servedBuild } from '../builds/served-build.ts';
import { answerCache, type AnswerCache } from '../http/answer-cache.ts';
import { recordAnswer } from '../http/answer-recorder.ts';
import { CACHE_QUERY } from '../http/public-headers.ts';
import { READ_METHODS, route } from '../http/route.ts';
import type { Route } from '../http/pipeline.ts';

/** @astrojs/node's handler in middleware mode: `next` is called for a path no page serves. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, next: (() => void) | undefined, locals: App.Locals) => Promise<void>;

export async function loadPageHandler(buildDir: string): Promise<PageHandler> {
  const entry = (await import(pathToFileURL(path.join(buildDir, 'server', 'entry.mjs')).href)) as { handler: PageHandler };
  return entry.handler;
}

/** Bytes of review-browser pages kept per build: a few hundred views (a page is about 30 KB). */
export const BROWSER_CACHE_BYTES = 8 * 1024 * 1024;
const BROWSER_ANSWERS = Symbol('review-browser-answers');

/**
 * The review browser's pages, kept per served build by URL. A page is made of the
 * build's reviews and the URL alone, so a build renders each view once: rendering
 * costs the server ten to twenty times a search answer of the same reviews, most
 * of it Astro's own work per request (a web Request with an AbortSignal, which
 * undici follows through a WeakRef: every request's objects outlive the young
 * generation, and the old one, holding the catalog, is marked all the more often).
 */
function reviewBrowserAnswers(handler: PageHandler, maxBytes: number): Route['handle'] {
  return async ({ req, res, url, rawQuery }) => {
    const build = servedBuild();
    const answers = build.memo<AnswerCache>(BROWSER_ANSWERS, () => answerCache(maxBytes));
    // The target as the page reads it (the percent-encoding step may have escaped it) and the query as sent.
    const key = `${req.url ?? ''} ${rawQuery ?? ''}`;
    const kept = answers.get(key);
    if (kept) return kept;
    const recorded = req.method === 'GET' ? recordAnswer(res) : undefined;
    await handler(req, res, undefined, { catalog: catalogOf(build), query: rawQuery ?? url.search, cacheControl: CACHE_QUERY });
    const answer = recorded?.();
    // Only a page of reviews: the others (a redirect, a page naming a mistake) are no-store, and no view to share.
    if (answer?.status === 200) answers.set(key, answer);
    return undefined;
  };
}

/**
 * The review browser, and Astro's 404 page for any other path the table leaves
 * (a person's mistyped address gets a page, not JSON).
 */
export function pageRoutes(handler: PageHandler, cacheBytes = BROWSER_CACHE_BYTES): { reviewBrowser: Route; otherPages: Route } {
  const render: Route['handle'] = async ({ req, res, url, rawQuery }) => {
    await handler(req, res, undefined, { catalog: servedCatalog(), query: rawQuery ?? url.search, cacheControl: CACHE_QUERY });
    return undefined;
  };
  return {
    reviewBrowser: route({
      name: 'review browser',
      path: '/reviews',
      methods: READ_METHODS,
      malformed: 'escaped',
      compress: 'always',
      handle: reviewBrowserAnswers(handler, cacheBytes),
    }),
    otherPages: route({ name: 'pages', path: '/*', methods: READ_METHODS, compress: 'always', handle: render }),
  };
}
