/**
 * The on-demand pages (src/pages, `prerender = false`) rendered by Astro's handler,
 * the last step of the server's pipeline. The handler is that of the Astro build the
 * server started on (Astro builds it in middleware mode, so it serves no files of
 * its own); what a page needs of the served build comes in `locals` (src/env.d.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { servedCatalog } from '../builds/served-catalog.ts';
import { CACHE_QUERY } from '../http/public-headers.ts';
import { READ_METHODS, route } from '../http/route.ts';
import type { Route } from '../http/pipeline.ts';

/** @astrojs/node's handler in middleware mode: `next` is called for a path no page serves. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, next: (() => void) | undefined, locals: App.Locals) => Promise<void>;

export async function loadPageHandler(buildDir: string): Promise<PageHandler> {
  const entry = (await import(pathToFileURL(path.join(buildDir, 'server', 'entry.mjs')).href)) as { handler: PageHandler };
  return entry.handler;
}

/**
 * The review browser, and Astro's 404 page for any other path the table leaves
 * (a person's mistyped address gets a page, not JSON).
 */
export function pageRoutes(handler: PageHandler): { reviewBrowser: Route; otherPages: Route } {
  const render: Route['handle'] = async ({ req, res, url, rawQuery }) => {
    await handler(req, res, undefined, { catalog: servedCatalog(), query: rawQuery ?? url.search, cacheControl: CACHE_QUERY });
    return undefined;
  };
  return {
    reviewBrowser: route({ name: 'review browser', path: '/reviews', methods: READ_METHODS, malformed: 'escaped', compress: 'always', handle: render }),
    otherPages: route({ name: 'pages', path: '/*', methods: READ_METHODS, compress: 'always', handle: render }),
  };
}
