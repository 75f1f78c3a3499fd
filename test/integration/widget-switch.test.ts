/**
 * The widget's document and the embed are kept per served build: the same answer,
 * bytes and ETag while the build serves, and the new build's reviews (with a new
 * ETag, so a client's old one gets the new bytes, not a 304) after a switch. The
 * routes are the server's own, behind the whole pipeline, over a copy of the small build.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPageRenderer, pageRoutes } from '../../src/server/app/page-route.ts';
import { installBuild, loadBuild } from '../../src/server/builds/loaded-build.ts';
import { widgetRoute } from '../../src/server/reviews/widget-route.ts';
import { copySmallBuild } from '../support/build-copy.ts';
import { serveRoute, type RouteServer } from '../support/route-server.ts';

const outDir = mkdtempSync(path.join(tmpdir(), 'widget-switch-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const copyBuild = (id: string, title?: string) => copySmallBuild(outDir, id, title);

let widget: RouteServer;
let embed: RouteServer;

beforeAll(async () => {
  const first = await copyBuild('a');
  installBuild(loadBuild('a', first));
  widget = await serveRoute(widgetRoute);
  embed = await serveRoute(pageRoutes(await loadPageRenderer(first)).embed);
});

describe('widget answers kept per build', () => {
  it('answers the same bytes and ETag within a build, and the new build’s after a switch', async () => {
    const before = await widget.send('GET', '/api/widget?limit=3');
    expect(before.status).toBe(200);
    expect((await widget.send('GET', '/api/widget?limit=03')).text).toBe(before.text);
    const etag = before.headers.etag as string;
    expect((await widget.send('GET', '/api/widget?limit=3', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const embedBefore = await embed.send('GET', '/embed?limit=3');
    expect(embedBefore.status).toBe(200);
    expect((await embed.send('GET', '/embed?limit=3')).text).toBe(embedBefore.text);

    installBuild(loadBuild('b', await copyBuild('b', 'After the switch')));
    const after = await widget.send('GET', '/api/widget?limit=3', { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect((JSON.parse(after.text) as { reviews: { title: string }[] }).reviews.map((r) => r.title)).toEqual(Array(3).fill('After the switch'));
    const embedAfter = await embed.send('GET', '/embed?limit=3');
    expect(embedAfter.text).toContain('After the switch');
    expect(embedBefore.text).not.toContain('After the switch');
  });
});
