/**
 * A content folder as a hostile git checkout can leave it: symbolic links to
 * /dev/zero, to a folder and to a file, a FIFO, a folder named like a review, a
 * 5 MB review, a file that is not UTF-8, a name with a newline and escape codes, a
 * name that is not UTF-8, and a YAML alias bomb. `npm run check:content`, the build and `npm start`'s
 * fingerprint each finish at once, listing every one as a problem of its file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, BuildError } from '../../src/build/build-site.ts';
import { buildFingerprint } from '../../src/build/fingerprint.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';

const scratch = mkdtempSync(path.join(PROJECT_ROOT, 'tmp', 'hostile-content-'));
const content = path.join(scratch, 'content');
const reviews = path.join(content, 'reviews');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const frontMatter = '---\nauthor: Nora Q.\nrating: 5\ndate: 2024-06-01\nverified: true\nverification: invoice\n';

beforeAll(() => {
  cpSync(path.join(PROJECT_ROOT, 'test/fixtures/small'), content, { recursive: true });
  const good = readFileSync(path.join(reviews, 'b-two.md'));
  symlinkSync('/dev/zero', path.join(reviews, 'zero.md'));
  symlinkSync(scratch, path.join(reviews, 'to-folder.md'));
  symlinkSync(path.join(reviews, 'b-two.md'), path.join(reviews, 'to-file.md'));
  execFileSync('mkfifo', [path.join(reviews, 'fifo.md')]);
  mkdirSync(path.join(reviews, 'folder.md'));
  writeFileSync(path.join(reviews, 'huge.md'), `${frontMatter}---\n${'All good. '.repeat(500_000)}\n`);
  writeFileSync(path.join(reviews, 'latin1.md'), Buffer.concat([Buffer.from(`${frontMatter}---\nCaf`), Buffer.from([0xe9]), Buffer.from(' roof.\n')]));
  writeFileSync(path.join(reviews, 'new\nline\u001b[31m.md'), good);
  writeFileSync(Buffer.concat([Buffer.from(`${reviews}/caf`), Buffer.from([0xe9]), Buffer.from('.md')]), good);
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) bomb.push(`${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(9).fill(`*${'abcdefghij'[i - 1]}`).join(', ')}]`);
  writeFileSync(path.join(reviews, 'bomb.md'), `${frontMatter}${bomb.join('\n')}\n---\nBoom.\n`);
  writeFileSync(path.join(reviews, 'bell.md'), `${frontMatter.replace('Nora Q.', '"Nora\\u0007 Q."')}---\nFine text.\n`);
  symlinkSync('/etc/hostname', path.join(content, 'summary.md'));
});

const EXPECTED = [
  ['reviews/bell.md › author', /U\+0007 at character 5/],
  ['reviews/bomb.md', /alias/],
  ['reviews/caf\u{FFFD}.md', /name that is not UTF-8/],
  ['reviews/fifo.md', /named pipe \(FIFO\)/],
  ['reviews/folder.md', /is a folder/],
  ['reviews/huge.md', /is 5,000,0\d\d bytes; the limit for this file is 65,536 bytes/],
  ['reviews/latin1.md', /not UTF-8/],
  ['reviews/new\\nline\\u{1B}[31m.md', /not a valid review id/],
  ['reviews/to-file.md', /symbolic link/],
  ['reviews/to-folder.md', /symbolic link/],
  ['reviews/zero.md', /symbolic link/],
  ['summary.md', /symbolic link/],
] as const;

function expectEveryProblem(report: string): void {
  const lines = report.trim().split('\n');
  expect(lines[0]).toBe(`${EXPECTED.length} problems in the content:`);
  for (const [where, message] of EXPECTED) {
    const line = lines.find((l) => l.startsWith(`  ${where}:`) || l.startsWith(`  ${where} ›`));
    expect(line, where).toBeDefined();
    expect(line, where).toMatch(message);
  }
}

describe('a hostile content folder', () => {
  it('npm run check:content lists every bad entry as a problem and exits 1 at once', () => {
    const started = Date.now();
    const run = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/check-content.ts')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CONTENT_DIR: content },
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 1024 * 1024,
    });
    expect(run.signal, 'killed after 30 s: it hung').toBeNull();
    expect(run.status).toBe(1);
    expectEveryProblem(run.stderr);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('the build refuses it before Astro runs, with the same list', async () => {
    const outDir = path.join(scratch, 'out');
    let error: unknown;
    try {
      await buildSite({ projectRoot: PROJECT_ROOT, contentDir: content, siteUrl: TEST_SITE_URL, outDir, stdio: 'pipe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BuildError);
    expectEveryProblem((error as Error).message.split('\nNothing was built.')[0] ?? '');
  });

  it("npm start's fingerprint reads no link, FIFO or device", () => {
    expect(buildFingerprint(PROJECT_ROOT, content, TEST_SITE_URL)).toMatch(/^[0-9a-f]{64}$/);
  });
});
