/**
 * The watcher's decisions on real build directories (copies of the small fixture's
 * build, edited): a good build is switched to and the old one's handles closed, a
 * build of other code asks for a restart, a build for another site or with a missing
 * file is refused once and the served one stays.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { switchToBuild } from '../../src/build/build-layout.ts';
import { followCurrentBuild } from '../../src/server/builds/build-watcher.ts';
import { servedBuild } from '../../src/server/builds/served-build.ts';
import { servedCatalog } from '../../src/server/builds/served-catalog.ts';
import { installBuild, loadBuild } from '../../src/server/builds/loaded-build.ts';
import { catalogLoadSteps } from '../../src/server/builds/catalog-loader.ts';
import { runSliced } from '../../src/server/builds/run-sliced.ts';
import { buildReviewCatalog, runSteps } from '../../src/domain/catalog/catalog-builder.ts';
import { generateContent } from '../../bench/generate-content.ts';
import { datasetFromFiles } from '../unit/catalog/support.ts';

const outDir = mkdtempSync(path.join(tmpdir(), 'watcher-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));
const SITE = 'https://reviews.example.test';

function copyBuild(id: string, edit?: (dir: string) => void): string {
  const dir = path.join(outDir, 'builds', id);
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(realpathSync(path.join(inject('smallBuild'), 'current')), dir, { recursive: true });
  edit?.(dir);
  return dir;
}

const editJson = (file: string, change: (value: Record<string, unknown>) => void) => {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(value);
  writeFileSync(file, JSON.stringify(value));
};

describe('following OUT_DIR/current', () => {
  const log: string[] = [];
  const options = { outDir, siteUrl: SITE, log: (line: string) => log.push(line) };
  const refused = new Set<string>();

  it('switches to a new build; a response in progress keeps the old files until it ends', async () => {
    installBuild(loadBuild('a', copyBuild('a')));
    const old = servedBuild();
    const bytes = old.bytes('/reviews.json');
    const release = old.hold();
    copyBuild('b');
    switchToBuild(outDir, 'b');
    rmSync(path.join(outDir, 'builds', 'a'), { recursive: true });
    expect(await followCurrentBuild(options, refused)).toBe('b');
    expect(servedBuild().id).toBe('b');
    expect(servedCatalog()).toBe(servedCatalog());
    expect(log.at(-1)).toBe('Now serving build b (was a).');
    // Pruned from disk, retired, but held: still readable through its handle.
    expect(old.bytes('/reviews.json').equals(bytes)).toBe(true);
    release();
    // Retired and no longer held: its files are closed.
    expect(() => old.bytes('/reviews.json')).toThrow('Build a has no file /reviews.json.');
    expect(await followCurrentBuild(options, refused)).toBeUndefined();
  });

  it('a build of other code is served, and the log asks for a restart', async () => {
    copyBuild('c', (dir) => editJson(path.join(dir, 'build-stamp.json'), (stamp) => (stamp.code = 'other-code')));
    switchToBuild(outDir, 'c');
    expect(await followCurrentBuild(options, refused)).toBe('c');
    expect(log.at(-1)).toBe('Now serving build c (was b). Its code differs from the code this server runs: restart to run it.');
  });

  it('a build for another site, or with a missing file, is refused once and the served build stays', async () => {
    copyBuild('d', (dir) => editJson(path.join(dir, 'static-manifest.json'), (manifest) => (manifest.siteUrl = 'https://elsewhere.example')));
    switchToBuild(outDir, 'd');
    expect(await followCurrentBuild(options, refused)).toBeUndefined();
    expect(log.at(-1)).toBe('Not switching to build d: it was built for https://elsewhere.example, this server serves https://reviews.example.test; still serving c.');
    copyBuild('e', (dir) => rmSync(path.join(dir, 'client', 'feed.xml.br')));
    switchToBuild(outDir, 'e');
    const lines = log.length;
    expect(await followCurrentBuild(options, refused)).toBeUndefined();
    expect(await followCurrentBuild(options, refused)).toBeUndefined();
    expect(log.length).toBe(lines + 1);
    expect(log.at(-1)).toMatch(/^Cannot switch to build e, still serving c: Build e is incomplete: ENOENT.*feed\.xml\.br/);
    expect(servedBuild().id).toBe('c');
  });

  it('a build whose /reviews.json is cut short is refused, and the served build stays', async () => {
    copyBuild('f', (dir) => {
      const file = path.join(dir, 'client/reviews.json');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.slice(0, text.lastIndexOf('\n', text.length - 5) + 1));
    });
    switchToBuild(outDir, 'f');
    expect(await followCurrentBuild(options, refused)).toBeUndefined();
    expect(log.at(-1)).toBe('Cannot switch to build f, still serving c: /reviews.json of build f does not end as it should: it is cut short or has more after its end.');
    expect(servedBuild().id).toBe('c');
  });
});

describe('reading a build', () => {
  it('text() gives the UTF-8 text whole, with characters split between its read chunks', () => {
    // 2-, 3- and 4-byte characters across several 64 KiB chunk boundaries, split at different bytes.
    const text = `${'a'.repeat(65_533)}${'é€😀'.repeat(40_000)}`;
    const dir = copyBuild('text', (built) => writeFileSync(path.join(built, 'client/reviews.json'), text));
    const build = loadBuild('text', dir);
    try {
      expect(build.text('/reviews.json') === text).toBe(true);
      expect(build.text('/reviews.json')).toBe(build.bytes('/reviews.json').toString('utf8'));
    } finally {
      build.retire();
    }
  });

  it('its catalog, read a line at a time across read chunks, at once or in slices, is that of its dataset', async () => {
    // About 1.6 MB: lines span the loader's 1 MiB chunks.
    const { dataset, bytes } = datasetFromFiles(generateContent(1_000, 11));
    const dir = copyBuild('lines', (built) => writeFileSync(path.join(built, 'client/reviews.json'), bytes));
    const build = loadBuild('lines', dir);
    try {
      const expected = buildReviewCatalog(dataset).entries;
      expect(runSteps(catalogLoadSteps(build)).entries).toEqual(expected);
      expect((await runSliced(catalogLoadSteps(build))).entries).toEqual(expected);
    } finally {
      build.retire();
    }
  });
});
