// @ts-check
import path from 'node:path';
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

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
  // The server (src/server/app) serves everything and calls Astro's handler for the
  // on-demand pages, as the last step of its own pipeline, with what they need in locals.
  // A page is rendered whole, then sent with its Content-Length in one write: the review
  // browser renders in about a millisecond, so streaming it gains nothing.
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  session: false,
  trailingSlash: 'ignore',
  build: { format: 'file' },
  devToolbar: { enabled: false },
});
