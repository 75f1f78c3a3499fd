/**
 * The server entry of Astro's build (astro.config.mjs names it): the renderer of the
 * on-demand pages, which the server calls as its last route
 * (src/server/app/page-route.ts) with a web Request it makes itself.
 *
 * Why not @astrojs/node's handler: it turns each Node request into a web Request
 * with an AbortSignal, which undici follows through a WeakRef, so every request's
 * objects outlived V8's young generation; at 100,000 reviews those promotions made
 * the old generation, which holds the catalog, be marked over and over, and a page
 * cost 10 to 20 times a search answer of the same reviews. A page is rendered whole
 * (no streaming) and nothing needs to abort it.
 */
import { createApp } from 'astro/app/entrypoint';

const app = createApp({ streaming: false });

/** No page is pre-rendered for an error: Astro renders its own 404 page instead of fetching one. */
const noErrorPage = async () => new Response(null, { status: 404 });

export function render(request: Request, locals: App.Locals): Promise<Response> {
  return app.render(request, { locals, prerenderedErrorPageFetch: noErrorPage });
}
