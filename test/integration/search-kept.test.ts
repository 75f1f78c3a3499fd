/**
 * The search keeps its answers per served build: a query is answered again with
 * the same status, headers and bytes until the build switches, and after a switch
 * with the new build's reviews. The route runs behind the whole pipeline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBuild, loadBuild } from '../../src/server/builds/loaded-build.ts';
import { searchRoute } from '../../src/server/reviews/review-routes.ts';
import { copySmallBuild } from '../support/build-copy.ts';
import { headersWithoutDate } from '../support/http.ts';
import { serveRoute, type RouteServer } from '../support/route-server.ts';

const outDir = mkdtempSync(path.join(tmpdir(), 'search-kept-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

let server: RouteServer;

beforeAll(async () => {
  installBuild(loadBuild('a', await copySmallBuild(outDir, 'a')));
  server = await serveRoute(searchRoute);
});

const titles = (body: string) => (JSON.parse(body) as { reviews: { title?: string }[] }).reviews.map((review) => review.title);

describe('search answers kept per build', () => {
  it('answers a query again with the same status, headers and bytes, to GET and HEAD', async () => {
    const made = await server.send('GET', '/api/reviews/search?min_rating=4&limit=3');
    const kept = await server.send('GET', '/api/reviews/search?min_rating=4&limit=3');
    expect(made.status).toBe(200);
    const body = JSON.parse(made.text) as { count: number; limit: number };
    expect([body.limit, body.count > 0]).toEqual([3, true]);
    expect(kept.body.equals(made.body)).toBe(true);
    expect(headersWithoutDate(kept)).toEqual(headersWithoutDate(made));
    const head = await server.send('HEAD', '/api/reviews/search?min_rating=4&limit=3');
    expect([head.status, head.text, head.headers['content-length']]).toEqual([200, '', made.headers['content-length']]);
  });

  it('keeps queries apart, whatever the order of their parameters', async () => {
    const one = await server.send('GET', '/api/reviews/search?limit=2&offset=1');
    const same = await server.send('GET', '/api/reviews/search?offset=1&limit=2');
    const other = await server.send('GET', '/api/reviews/search?limit=2&offset=2');
    expect(same.text).toBe(one.text);
    expect(JSON.parse(other.text)).toMatchObject({ offset: 2, count: 2 });
    expect(other.text).not.toBe(one.text);
  });

  it('compresses a kept answer for a client that asks', async () => {
    const plain = await server.send('GET', '/api/reviews/search');
    const res = await server.send('GET', '/api/reviews/search', { headers: { 'Accept-Encoding': 'gzip' } });
    expect([res.status, res.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gunzipSync(res.body).equals(plain.body)).toBe(true);
  });

  it('answers with the new build’s reviews after a switch', async () => {
    const before = await server.send('GET', '/api/reviews/search?limit=5');
    expect(titles(before.text)).not.toContain('After the switch');
    installBuild(loadBuild('b', await copySmallBuild(outDir, 'b', 'After the switch')));
    const after = await server.send('GET', '/api/reviews/search?limit=5');
    expect(after.status).toBe(200);
    expect(new Set(titles(after.text))).toEqual(new Set(['After the switch']));
  });
});
