/**
 * The CI + CDN deploy of docs/deploy.md, with its exact commands and nothing the base
 * system lacks (tar, npm; no rsync): the build's public files uploaded into a folder
 * standing for the CDN's origin in a safe order, and the build installed on a server that
 * has never built, which then serves it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { currentBuildId } from '../../src/build/build-layout.ts';
import type { StaticManifest } from '../../src/build/static-manifest.ts';
import { PROJECT_ROOT } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { scratchDir } from '../support/https-subscriber.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const FEED_PATHS = new Set(['/feed.xml', '/api/feed.json']);

let ciOut: string;
let id: string;
let dir: string;
let manifest: StaticManifest;
const servers: RunningServer[] = [];
const cleanups: (() => void)[] = [];

/** `npm run --silent <script> -- args` in the project, as docs/deploy.md writes it. */
function npmRun(script: string, args: string[], env: Record<string, string>) {
  const result = spawnSync('npm', ['run', '--silent', script, '--', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
const sh = (command: string, cwd: string) => {
  const result = spawnSync('/bin/sh', ['-c', command], { cwd, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
};

beforeAll(() => {
  ciOut = inject('smallBuild');
  id = currentBuildId(ciOut) as string;
  dir = scratchDir('cdn-deploy');
  manifest = JSON.parse(readFileSync(path.join(ciOut, 'current/static-manifest.json'), 'utf8')) as StaticManifest;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const cleanup of cleanups) cleanup();
});

describe('npm run cdn:upload -- ORIGIN', () => {
  it('puts every file, its precompressed copies and their headers in the origin, assets before the documents that link them', () => {
    const origin = path.join(dir, 'origin');
    const run = npmRun('cdn:upload', [origin], { OUT_DIR: ciOut });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const client = path.join(ciOut, 'current/client');
    for (const [urlPath, entry] of Object.entries(manifest.files)) {
      expect(readFileSync(path.join(origin, urlPath)).equals(readFileSync(path.join(client, urlPath))), urlPath).toBe(true);
      for (const suffix of [entry.encodings.br === undefined ? [] : ['.br'], entry.encodings.gzip === undefined ? [] : ['.gz']].flat()) {
        expect(readFileSync(path.join(origin, urlPath + suffix)).equals(readFileSync(path.join(client, urlPath + suffix))), urlPath + suffix).toBe(true);
      }
    }
    const headers = readFileSync(path.join(origin, '_headers'), 'utf8');
    expect(headers).toContain('/reviews.json\n  Content-Type: application/json\n  Cache-Control: public, max-age=60, s-maxage=300, stale-while-revalidate=86400\n  Vary: Accept-Encoding\n');
    expect(headers).toContain(`/reviews.json.br\n  Content-Type: application/json\n`);
    expect(headers).toContain(`  Content-Encoding: br\n  ETag: "${manifest.files['/reviews.json']?.hash}-br"\n`);
    expect(headers).toContain('/feed.xml.gz\n  Content-Type: application/atom+xml\n');

    // The order written: every asset a page names is there before the page; the feeds come last.
    const written = run.stdout.split('\n').filter((line) => /^(asset|document|page|feed) /.test(line)).map((line) => line.split(/\s+/) as [string, string]);
    expect(written.map(([, urlPath]) => urlPath).sort()).toEqual(Object.keys(manifest.files).sort());
    const phases = written.map(([phase]) => phase);
    expect(phases).toEqual([...phases].sort((a, b) => ['asset', 'document', 'page', 'feed'].indexOf(a) - ['asset', 'document', 'page', 'feed'].indexOf(b)));
    const position = new Map(written.map(([, urlPath], index) => [urlPath, index]));
    let linkedFiles = 0;
    for (const [urlPath, entry] of Object.entries(manifest.files)) {
      if (!entry.type.startsWith('text/html')) continue;
      // The files of the build a page names (stylesheets, icons, data documents); feeds, which name pages, come after them.
      const linked = [...readFileSync(path.join(origin, urlPath), 'utf8').matchAll(/(?:href|src)="(\/[^"?#]*)"/g)]
        .map((m) => m[1] as string)
        .filter((linkedPath) => manifest.files[linkedPath] !== undefined && !FEED_PATHS.has(linkedPath) && !manifest.files[linkedPath]?.type.startsWith('text/html'));
      linkedFiles += linked.length;
      for (const asset of linked) expect(position.get(asset), `${asset} before ${urlPath}`).toBeLessThan(position.get(urlPath) as number);
    }
    expect(linkedFiles, 'files named by the pages').toBeGreaterThan(0);
    expect(position.get('/feed.xml')).toBeGreaterThan(position.get('/index.html') as number);
  });

  it('writes nothing the origin has already, and removes what the build no longer has but hashed assets', () => {
    const origin = path.join(dir, 'origin');
    writeFileSync(path.join(origin, 'gone.json'), '{}');
    // A hashed asset of an earlier build, which pages still cached may name.
    mkdirSync(path.join(origin, '_astro'), { recursive: true });
    writeFileSync(path.join(origin, '_astro/old.Ab12.css'), 'a{}');
    const run = npmRun('cdn:upload', [origin], { OUT_DIR: ciOut });
    expect(run.stdout).toMatch(new RegExp(`Uploaded build ${id} to .*: 0 files written, ${Object.keys(manifest.files).length} unchanged, 1 removed\\.`));
    expect(existsSync(path.join(origin, 'gone.json'))).toBe(false);
    expect(existsSync(path.join(origin, '_astro/old.Ab12.css'))).toBe(true);
  });
});

describe('a server that has never built', () => {
  it('installs the CI build from a tarball and serves it (npm run install-build)', async () => {
    // CI: pack the build. The server: unpack it anywhere, install it into its own OUT_DIR.
    sh(`tar -C ${path.join(ciOut, 'builds')} -czf ${path.join(dir, 'build.tar.gz')} ${id}`, dir);
    mkdirSync(path.join(dir, 'incoming'));
    sh(`tar -C incoming -xzf build.tar.gz`, dir);
    const outDir = path.join(dir, 'server-out');
    const first = npmRun('install-build', [path.join(dir, 'incoming', id)], { OUT_DIR: outDir });
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(`Installed ${id} in ${outDir}: current is now ${id}. A running server switches within 2 seconds.\n`);
    expect(readlinkSync(path.join(outDir, 'current'))).toBe(`builds/${id}`);
    const again = npmRun('install-build', [path.join(dir, 'incoming', id)], { OUT_DIR: outDir });
    expect(again.stdout).toBe(`${id} is already the current build of ${outDir}.\n`);

    const server = await startServer(outDir);
    servers.push(server);
    const res = await rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync(path.join(ciOut, 'current/client/reviews.json')))).toBe(true);
    const health = JSON.parse((await rawRequest(`${server.url}/api/health`)).text) as { build: { id: string } };
    expect(health.build.id).toBe(id);
  });

  it('refuses a folder that is not a complete build, saying what to copy', () => {
    const run = npmRun('install-build', [path.join(ciOut, 'current/client')], { OUT_DIR: path.join(dir, 'refused-out') });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/client is not a complete build: it lacks build-stamp\.json or static-manifest\.json \(copy a whole OUT_DIR\/builds\/<id> folder\)\./);
  });

  it('switches to a build copied into OUT_DIR/builds with npm run rollback -- --to, outside the project too', () => {
    // Outside the project, OUT_DIR needs the link to the project's packages that a build would have made.
    const outDir = mkdtempSync(path.join(tmpdir(), 'reviews-rollback-'));
    cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
    cpSync(path.join(ciOut, 'builds', id), path.join(outDir, 'builds', id), { recursive: true });
    const run = npmRun('rollback', ['--to', id], { OUT_DIR: outDir });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`Switched ${outDir}: current is now ${id} (none before). A running server switches within 2 seconds.\n`);
    expect(readlinkSync(path.join(outDir, 'current'))).toBe(`builds/${id}`);
    expect(existsSync(path.join(outDir, 'node_modules/astro'))).toBe(true);
  });
});
