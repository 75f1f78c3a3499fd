/**
 * The review browser keeps its pages per served build: a page is rendered once and
 * then answered as it was, byte for byte, until the build switches; after a switch
 * the page shows the new build's reviews. The Astro handler is the small fixture's,
 * behind the whole pipeline.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeStaticManifest } from '../../src/build/static-manifest.ts';
import { serializeReviewsDataset } from '../../src/domain/datasets.ts';
import type { ReviewsDataset } from '../../src/domain/schemas/datasets.ts';
import { installBuild, loadBuild } from '../../src/server/builds/loaded-build.ts';
import { loadPageRenderer, pageRoutes } from '../../src/server/app/page-route.ts';
import { TEST_SITE_URL } from '../support/build.ts';
import { serveRoute, type RouteServer } from '../support/route-server.ts';

const outDir = mkdtempSync(path.join(tmpdir(), 'browser-cache-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** A copy of the small build; `title` replaces every review's title in its reviews.json. */
async function copyBuild(id: string, title?: string): Promise<string> {
  const dir = path.join(outDir, 'builds', id);
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(realpathSync(path.join(inject('smallBuild'), 'current')), dir, { recursive: true });
  if (title !== undefined) {
    const file = path.join(dir, 'client/reviews.json');
    const dataset = JSON.parse(readFileSync(file, 'utf8')) as ReviewsDataset;
    for (const review of dataset.reviews) review.title = title;
    writeFileSync(file, serializeReviewsDataset(dataset));
    for (const stale of [`${file}.gz`, `${file}.br`]) rmSync(stale, { force: true });
    await writeStaticManifest(dir, TEST_SITE_URL, dataset.updated);
  }
  return dir;
}

let server: RouteServer;
let first: string;

beforeAll(async () => {
  first = await copyBuild('a');
  installBuild(loadBuild('a', first));
  server = await serveRoute(pageRoutes(await loadPageRenderer(first)).reviewBrowser);
});

describe('review browser pages kept per build', () => {
  it('answers a view again with the same status, headers and bytes, to GET and HEAD', async () => {
    const rendered = await server.send('GET', '/reviews?min_rating=4');
    const kept = await server.send('GET', '/reviews?min_rating=4');
    expect(rendered.status).toBe(200);
    expect(kept.text).toBe(rendered.text);
    const { date: _a, ...renderedHeaders } = rendered.headers;
    const { date: _b, ...keptHeaders } = kept.headers;
    expect(keptHeaders).toEqual(renderedHeaders);
    const head = await server.send('HEAD', '/reviews?min_rating=4');
    expect([head.status, head.text, head.headers['content-length']]).toEqual([200, '', rendered.headers['content-length']]);
  });

  it('compresses a kept page for a client that asks, as a rendered one', async () => {
    const res = await server.send('GET', '/reviews?min_rating=4', { headers: { 'Accept-Encoding': 'gzip' } });
    expect([res.status, res.headers['content-encoding'], res.headers.vary]).toEqual([200, 'gzip', 'Accept-Encoding']);
  });

  it('keeps no redirect or page naming a mistake', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await server.send('GET', '/reviews?rating=9')).status).toBe(400);
      expect((await server.send('GET', '/reviews?rating=')).status).toBe(303);
    }
  });

  it('shows the new build’s reviews after a switch', async () => {
    const before = await server.send('GET', '/reviews');
    expect(before.text).not.toContain('After the switch');
    installBuild(loadBuild('b', await copyBuild('b', 'After the switch')));
    const after = await server.send('GET', '/reviews');
    expect(after.status).toBe(200);
    expect(after.text).toContain('After the switch');
  });
});
