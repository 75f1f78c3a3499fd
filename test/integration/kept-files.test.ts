/**
 * A build's files are kept in memory once read (kept-files.ts): a file served again is
 * written from memory, with the same headers and the built bytes, in each encoding;
 * a switch drops them with the build; a file that cannot be read whole, or over the
 * size kept, is never kept.
 * The route runs behind the whole pipeline, on a real port.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFilesRoute } from '../../src/server/builds/build-files.ts';
import { writeStaticManifest } from '../../src/build/static-manifest.ts';
import { KEPT_FILE_MAX_BYTES, keptBytes } from '../../src/server/builds/kept-files.ts';
import { installBuild, loadBuild, type Encoding, type LoadedBuild } from '../../src/server/builds/loaded-build.ts';
import { copySmallBuild } from '../support/build-copy.ts';
import { headersWithoutDate } from '../support/http.ts';
import { TEST_SITE_URL } from '../support/build.ts';
import { serveRoute, type RouteServer } from '../support/route-server.ts';

const outDir = mkdtempSync(path.join(tmpdir(), 'kept-files-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

let server: RouteServer;
let dirA: string;
let buildA: LoadedBuild;

beforeAll(async () => {
  dirA = await copySmallBuild(outDir, 'a');
  buildA = loadBuild('a', dirA);
  installBuild(buildA);
  server = await serveRoute(buildFilesRoute);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the build keeps of the file once the read its first request started is done (looked at, never read), or undefined after a second. */
async function kept(build: LoadedBuild, urlPath: string, encoding?: Encoding): Promise<Buffer | undefined> {
  for (let tries = 0; tries < 100; tries++) {
    const bytes = keptBytes(build, urlPath, encoding);
    if (bytes !== undefined) return bytes;
    await sleep(10);
  }
  return undefined;
}

describe('build files kept in memory', () => {
  it.each([
    ['identity', undefined, 'reviews.json'],
    ['br', 'br', 'reviews.json.br'],
    ['gzip', 'gzip', 'reviews.json.gz'],
  ] as const)('serves /reviews.json again (%s) with the same headers and the built bytes', async (coding, encoding, file) => {
    const built = readFileSync(path.join(dirA, 'client', file));
    const headers = { 'Accept-Encoding': coding };
    const first = await server.send('GET', '/reviews.json', { headers });
    expect((await kept(buildA, '/reviews.json', encoding))?.equals(built)).toBe(true);
    const again = await server.send('GET', '/reviews.json', { headers });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(first.body.equals(built)).toBe(true);
    expect(again.body.equals(built)).toBe(true);
    expect(headersWithoutDate(again)).toEqual(headersWithoutDate(first));
    const head = await server.send('HEAD', '/reviews.json', { headers });
    expect([head.status, head.body.length, head.headers['content-length']]).toEqual([200, 0, String(built.length)]);
    const notModified = await server.send('GET', '/reviews.json', { headers: { ...headers, 'If-None-Match': first.headers.etag as string } });
    expect([notModified.status, notModified.body.length]).toEqual([304, 0]);
  });

  it('keeps the built bytes: a file rewritten in place afterwards is still served as built', async () => {
    const file = path.join(dirA, 'client', 'feed.xml');
    const built = readFileSync(file);
    await server.send('GET', '/feed.xml', { headers: { 'Accept-Encoding': 'identity' } });
    expect((await kept(buildA, '/feed.xml'))?.equals(built)).toBe(true);
    // The same inode, which the build's handle reads: streamed, these bytes would be served.
    writeFileSync(file, Buffer.alloc(built.length, 0x20));
    const res = await server.send('GET', '/feed.xml', { headers: { 'Accept-Encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(res.body.equals(built)).toBe(true);
  });

  it('never keeps a file shorter than its manifest says, and cuts each response of it', async () => {
    // Cut short after the build was loaded: its handle reads what is left.
    const file = path.join(dirA, 'client', 'insights.json');
    const size = readFileSync(file).length;
    truncateSync(file, Math.floor(size / 2));
    for (let i = 0; i < 3; i++) {
      await expect(server.send('GET', '/insights.json', { headers: { 'Accept-Encoding': 'identity' } })).rejects.toThrow();
      await sleep(20);
    }
    expect(keptBytes(buildA, '/insights.json')).toBeUndefined();
    const other = await server.send('GET', '/reviews.json', { headers: { 'Accept-Encoding': 'identity' } });
    expect(other.status).toBe(200);
  });

  it('serves the new build’s bytes after a switch, and keeps them apart', async () => {
    const before = await server.send('GET', '/reviews.json', { headers: { 'Accept-Encoding': 'identity' } });
    expect(before.text).not.toContain('After the switch');
    const dirB = await copySmallBuild(outDir, 'b', 'After the switch');
    const buildB = loadBuild('b', dirB);
    installBuild(buildB);
    const built = readFileSync(path.join(dirB, 'client', 'reviews.json'));
    for (let i = 0; i < 2; i++) {
      const after = await server.send('GET', '/reviews.json', { headers: { 'Accept-Encoding': 'identity' } });
      expect(after.body.equals(built)).toBe(true);
      await kept(buildB, '/reviews.json');
    }
    expect(keptBytes(buildB, '/reviews.json')?.equals(built)).toBe(true);
  });

  it('streams a file over the size it keeps every time: rewritten in place, its new bytes show', async () => {
    const dir = await copySmallBuild(outDir, 'c');
    const file = path.join(dir, 'client', 'large.bin');
    writeFileSync(file, Buffer.alloc(KEPT_FILE_MAX_BYTES + 1, 0x61));
    const { updated } = JSON.parse(readFileSync(path.join(dir, 'static-manifest.json'), 'utf8')) as { updated: string };
    await writeStaticManifest({ outDir: dir, siteUrl: TEST_SITE_URL, updated });
    const build = loadBuild('c', dir);
    installBuild(build);
    const first = await server.send('GET', '/large.bin');
    expect([first.status, first.body.length, first.body.every((byte) => byte === 0x61)]).toEqual([200, KEPT_FILE_MAX_BYTES + 1, true]);
    // Time for a read in the background, were one started, to keep the file.
    await sleep(500);
    writeFileSync(file, Buffer.alloc(KEPT_FILE_MAX_BYTES + 1, 0x62));
    const second = await server.send('GET', '/large.bin');
    expect([second.status, second.body.length, second.body.every((byte) => byte === 0x62)]).toEqual([200, KEPT_FILE_MAX_BYTES + 1, true]);
    expect(keptBytes(build, '/large.bin')).toBeUndefined();
  });
});
