// @ts-check
/** @import { AstroIntegration } from 'astro' */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, passthroughImageService } from 'astro/config';

// Build-time settings come from the environment so that tests and benchmarks can
// build other content into other folders without touching this file.
const siteUrl = process.env.SITE_URL || 'http://127.0.0.1:4321';
const outDir = process.env.OUT_DIR ? path.resolve(process.env.OUT_DIR) : './dist';

export default defineConfig({
  site: siteUrl,
  output: 'static',
  outDir,
  // npm run build keeps one cache per OUT_DIR (builds into it take turns); elsewhere a
  // separate cache per output folder keeps concurrent builds apart.
  cacheDir: process.env.ASTRO_CACHE_DIR || (process.env.OUT_DIR ? `${outDir}-cache` : './node_modules/.astro'),
  // The server (src/server/app) serves everything and calls Astro's renderer for the
  // on-demand pages, as the last route of its own pipeline, with what they need in locals.
  adapter: reviewsServer(),
  integrations: [widgetCompilerPreload()],
  session: false,
  // No page goes through astro:assets; without this Astro expects sharp and logs an
  // error on every build because our adapter does not declare it.
  image: { service: passthroughImageService() },
  trailingSlash: 'ignore',
  build: { format: 'file' },
  devToolbar: { enabled: false },
});

/**
 * Astro's adapter for our own server: the build's server entry (src/astro-entry.ts)
 * exports a renderer, and the server does the rest (files, headers, compression).
 * @returns {AstroIntegration}
 */
function reviewsServer() {
  const adapter = {
    name: 'reviews-server',
    entrypointResolution: /** @type {const} */ ('auto'),
    serverEntrypoint: fileURLToPath(new URL('./src/astro-entry.ts', import.meta.url)),
    adapterFeatures: { buildOutput: /** @type {const} */ ('server') },
    supportedAstroFeatures: {
      staticOutput: /** @type {const} */ ('stable'),
      hybridOutput: /** @type {const} */ ('stable'),
      serverOutput: /** @type {const} */ ('stable'),
    },
  };
  return { name: adapter.name, hooks: { 'astro:config:done': ({ setAdapter }) => setAdapter(adapter) } };
}

/**
 * The widget's script (src/pages/widget.js.ts) is made with TypeScript's transpiler,
 * whose module takes most of a second to load. Loaded when the build starts, it is
 * ready by the time the page renders, and its loading overlaps the server's bundling
 * instead of lengthening the pages' rendering, which waits on the content step.
 * @returns {AstroIntegration}
 */
function widgetCompilerPreload() {
  return {
    name: 'widget-compiler-preload',
    hooks: {
      'astro:build:start': () => {
        // A failure here shows where the page imports the module.
        import('typescript').catch(() => {});
      },
    },
  };
}
