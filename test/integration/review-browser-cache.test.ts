/**
 * The review browser keeps its pages per served build: a page is rendered once and
 * then answered as it was, byte for byte, until the build switches; after a switch
 * the page shows the new build's reviews. The Astro handler is the small fixture's,
 * behind the whole pipeline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBuild, loadBuild } from '../../src/server/builds/loaded-build.ts';
import { loadPageRenderer, pageRoutes } from '../../src/server/app/page-route.ts';
import { copySmallBuild } from '../support/build-copy.ts';
import { headersWithoutDate } from '../support/http.ts';
import { serveRoute, type RouteServer } from '../support/route-server.ts';

const outDir = mkdtempSync(path.join(tmpdir(), 'browser-cache-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const copyBuild = (id: string, title?: string) => copySmallBuild(outDir, id, title);

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
    expect(headersWithoutDate(kept)).toEqual(headersWithoutDate(rendered));
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
