/**
 * The on-demand pages (src/pages, `prerender = false`) rendered by Astro, the last
 * route of the server's table. The renderer is that of the Astro build the server
 * started on (src/astro-entry.ts): the server hands it a web Request it makes
 * itself and writes the page it gets back as any other answer. What a page needs of
 * the served build comes in `locals` (src/env.d.ts).
 */
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { catalogOf } from '../builds/served-catalog.ts';
import { servedBuild } from '../builds/served-build.ts';
import { answerCache, type AnswerCache, type CachedAnswer } from '../http/answer-cache.ts';
import { CACHE_QUERY } from '../http/public-headers.ts';
import { READ_METHODS, route } from '../http/route.ts';
import type { Exchange, Route } from '../http/pipeline.ts';

/** Astro's renderer of the on-demand pages (src/astro-entry.ts). */
export type PageRenderer = (request: Request, locals: App.Locals) => Promise<Response>;

export async function loadPageRenderer(buildDir: string): Promise<PageRenderer> {
  const entry = (await import(pathToFileURL(path.join(buildDir, 'server', 'entry.mjs')).href)) as { render: PageRenderer };
  return entry.render;
}

/** The request as a page reads it: its URL and headers; GET or HEAD, nothing to read from it. */
function webRequest(req: IncomingMessage, origin: string, target = req.url ?? '/', method = req.method === 'HEAD' ? 'HEAD' : 'GET'): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  return new Request(new URL(target, origin), { method, headers });
}

/** A page as an answer: its body made bytes once, so the page can be kept and written again as it is. */
async function pageAnswer(response: Response): Promise<CachedAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body: { bytes: [Buffer.from(await response.arrayBuffer())] } };
}

/**
 * Renders the request's page. `as` renders another path of the site for it, as a GET
 * (the review page names the path Astro routes, and keeps whole bodies for HEAD too),
 * with `locals` added to what every page gets.
 */
export function render(renderer: PageRenderer, { req, url, rawQuery }: Exchange, as?: { path: string; locals: Partial<App.Locals> }): Promise<CachedAnswer> {
  const locals = { catalog: catalogOf(servedBuild()), query: rawQuery ?? url.search, cacheControl: CACHE_QUERY, ...as?.locals };
  return renderer(webRequest(req, url.origin, as?.path, as && 'GET'), locals).then(pageAnswer);
}

/** Bytes of review-browser pages kept per build: a few hundred views (a page is about 30 KB). */
export const BROWSER_CACHE_BYTES = 8 * 1024 * 1024;
/** Bytes of embed pages kept per build: a page is 2 to 15 KB. */
export const EMBED_CACHE_BYTES = 2 * 1024 * 1024;
const BROWSER_ANSWERS = Symbol('review-browser-answers');
const EMBED_ANSWERS = Symbol('embed-answers');

/**
 * Pages kept per served build by URL, under `key`: a page of the review browser or
 * of the embed is made of the build's reviews and the URL alone, so a build renders
 * each view once.
 */
function keptPages(renderer: PageRenderer, maxBytes: number, key: symbol): Route['handle'] {
  return async (exchange) => {
    const { req, rawQuery } = exchange;
    const answers = servedBuild().memo<AnswerCache>(key, () => answerCache(maxBytes));
    // The target as the page reads it (the percent-encoding step may have escaped it) and the query as sent.
    const url = `${req.url ?? ''} ${rawQuery ?? ''}`;
    const kept = answers.get(url);
    if (kept) return kept;
    const answer = await render(renderer, exchange);
    // Only a page of reviews: the others (a redirect, a page naming a mistake) are no-store, and no view to share.
    if (answer.status === 200) answers.set(url, answer);
    return answer;
  };
}

/**
 * The review browser, the embed, and Astro's 404 page for any other path the table leaves
 * (a person's mistyped address gets a page, not JSON).
 */
export function pageRoutes(renderer: PageRenderer, cacheBytes = BROWSER_CACHE_BYTES): { reviewBrowser: Route; embed: Route; otherPages: Route } {
  return {
    reviewBrowser: route({
      name: 'review browser',
      path: '/reviews',
      methods: READ_METHODS,
      malformed: 'escaped',
      compress: 'always',
      handle: keptPages(renderer, cacheBytes, BROWSER_ANSWERS),
    }),
    // The iframe embed (src/pages/embed.astro): reviews for sites that allow no scripts.
    embed: route({
      name: 'embed',
      path: '/embed',
      methods: READ_METHODS,
      malformed: 'escaped',
      compress: 'always',
      handle: keptPages(renderer, EMBED_CACHE_BYTES, EMBED_ANSWERS),
    }),
    otherPages: route({ name: 'pages', path: '/*', methods: READ_METHODS, compress: 'always', handle: (exchange) => render(renderer, exchange) }),
  };
}
