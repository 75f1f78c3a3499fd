import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildSite } from '../../src/build/build-site.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';

const scratch = mkdtempSync(path.join(PROJECT_ROOT, 'tmp', 'build-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full, `${prefix}${name}/`) : [`${prefix}${name}`];
    });
}

function runScript(script: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [path.join(PROJECT_ROOT, script)], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('deterministic builds', () => {
  it('the same content gives byte-identical published files', async () => {
    const first = inject('smallBuild');
    const second = path.join(scratch, 'again');
    await buildSite({ projectRoot: PROJECT_ROOT, contentDir: path.join(PROJECT_ROOT, 'test/fixtures/small'), siteUrl: TEST_SITE_URL, outDir: second, stdio: 'pipe' });
    const files = filesUnder(path.join(first, 'client'));
    expect(files).toEqual(filesUnder(path.join(second, 'client')));
    expect(files).toEqual(expect.arrayContaining(['reviews.json', 'reviews.json.br', 'reviews.json.gz', 'feed.xml', 'api/feed.json', 'index.html', 'insights.html', 'developers.html', 'badge.svg', 'widget.js', 'widget.js.gz']));
    for (const file of files) {
      const a = readFileSync(path.join(first, 'client', file));
      const b = readFileSync(path.join(second, 'client', file));
      expect(a.equals(b), file).toBe(true);
    }
    expect(readFileSync(path.join(first, 'static-manifest.json'), 'utf8')).toBe(readFileSync(path.join(second, 'static-manifest.json'), 'utf8'));
  });
});

describe('bad content', () => {
  const content = path.join(scratch, 'bad-content');
  cpSync(path.join(PROJECT_ROOT, 'test/fixtures/small'), content, { recursive: true });
  const edit = (file: string, from: string | RegExp, to: string) => {
    const full = path.join(content, file);
    writeFileSync(full, readFileSync(full, 'utf8').replace(from, to));
  };
  edit('reviews/a-one.md', 'rating: 5', 'rating: 7');
  edit('reviews/b-two.md', 'date: 2024-05-01', 'date: 2024-02-30');
  // Schema and reference problems of one file come together, in one run.
  edit('reviews/c-three.md', 'verified: true\nverification: invoice', 'verified: yes\nverification: invoice\nservices: [chimney]\ntechnicians: [nobody]');
  edit('reviews/c-three.md', /date: .*\n/, 'date: 2999-12-31\n');
  edit('reviews/d-hidden.md', /date: .*\n/, 'date: 2999-01-01\n');
  edit('reviews/e-five.md', /author: .*\n/, '');
  cpSync(path.join(content, 'reviews/c-three.md'), path.join(content, 'reviews/C-three.md'));
  const expected = [
    'reviews/a-one.md › rating: must be a whole number from 1 to 5',
    'reviews/b-two.md › date: must be a real calendar date written YYYY-MM-DD',
    'reviews/c-three.md › verified: must be true or false; got "yes"',
    'reviews/c-three.md › services[0]: unknown id "chimney"',
    'reviews/c-three.md › date: 2999-12-31 is in the future',
    'reviews/c-three.md › technicians[0]: unknown id "nobody"',
    'reviews/d-hidden.md › date: 2999-01-01 is in the future; a date may be at most today',
    'reviews/e-five.md › author: is required',
    'reviews/C-three.md: file name "C-three" is not a valid review id',
  ];

  it('check:content lists every bad file, field and reason in one run', () => {
    const run = runScript('scripts/check-content.ts', { CONTENT_DIR: content });
    expect(run.status).toBe(1);
    for (const line of expected) expect(run.stderr).toContain(line);
  });

  it('the build fails with the same list, writes nothing and keeps the previous build', () => {
    const outDir = path.join(scratch, 'out');
    // A flat copy of the served build, as one copied from elsewhere would be.
    cpSync(realpathSync(path.join(inject('smallBuild'), 'current')), outDir, { recursive: true });
    const before = readFileSync(path.join(outDir, 'client/reviews.json'));
    const run = runScript('scripts/build.ts', { CONTENT_DIR: content, OUT_DIR: outDir, SITE_URL: TEST_SITE_URL });
    expect(run.status).toBe(1);
    for (const line of expected) expect(run.stderr).toContain(line);
    expect(run.stderr).toContain('Nothing was built.');
    expect(readFileSync(path.join(outDir, 'client/reviews.json')).equals(before)).toBe(true);
    expect(existsSync(path.join(outDir, 'builds')) ? readdirSync(path.join(outDir, 'builds')) : []).toEqual([]);
  });
});
