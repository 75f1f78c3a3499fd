/**
 * The build's cache of prepared reviews (src/build/review-cache.ts), through real
 * `npm run build`s of a copy of the project: the copy's code (the analyzer's model,
 * say) can then change without touching the project the other tests build.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addReview } from '../support/content-variant.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';

const scratch = mkdtempSync(path.join(PROJECT_ROOT, 'tmp', 'build-cache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The project's code without its tests, with one page that fails the Astro build when asked to. */
function copyProject(): string {
  const root = path.join(scratch, 'project');
  for (const name of ['src', 'public', 'scripts', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(path.join(PROJECT_ROOT, name), path.join(root, name), { recursive: true });
  }
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  writeFileSync(
    path.join(root, 'src/pages/fail-when-asked.json.ts'),
    `export const GET = () => {\n  if (process.env.TEST_FAIL_ASTRO) throw new Error('asked to fail');\n  return new Response('{}');\n};\n`,
  );
  return root;
}

const project = copyProject();
const content = path.join(scratch, 'content');
cpSync(path.join(PROJECT_ROOT, 'test/fixtures/small'), content, { recursive: true });

interface Run {
  status: number | null;
  output: string;
  counts: { files: number; cached: number; prepared: number } | undefined;
  /** Review files the build did not read: their stamp had not changed since their entry was made. */
  unread: number | undefined;
}

function build(outDir: string, env: Record<string, string> = {}): Run {
  const run = spawnSync(process.execPath, [path.join(project, 'scripts/build.ts')], {
    cwd: project,
    env: { ...process.env, CONTENT_DIR: content, OUT_DIR: outDir, SITE_URL: TEST_SITE_URL, ...env },
    encoding: 'utf8',
    timeout: 180_000,
  });
  const match = /(\d+) review files: (\d+) from the cache, (\d+) checked and analysed/.exec(run.stdout);
  const counts = match && { files: Number(match[1]), cached: Number(match[2]), prepared: Number(match[3]) };
  const unread = /; (\d+) unchanged, not read again/.exec(run.stdout)?.[1];
  return { status: run.status, output: `${run.stdout}${run.stderr}`, counts: counts ?? undefined, unread: unread === undefined ? undefined : Number(unread) };
}

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? filesUnder(path.join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

/** Every published file and the manifest, by name: two builds are the same when these are. */
function published(outDir: string): Map<string, Buffer> {
  const client = path.join(outDir, 'current/client');
  const files = new Map(filesUnder(client).map((file) => [file, readFileSync(path.join(client, file))]));
  files.set('static-manifest.json', readFileSync(path.join(outDir, 'current/static-manifest.json')));
  return files;
}

function expectSameOutput(a: string, b: string): void {
  const left = published(a);
  const right = published(b);
  expect([...left.keys()]).toEqual([...right.keys()]);
  for (const [file, bytes] of left) expect(bytes.equals(right.get(file) as Buffer), file).toBe(true);
}

type Published = { id: string; title?: string; aspects: { aspect: string; sentiment: string }[]; services: { id: string }[] };
function review(outDir: string, id: string): Published {
  const { reviews } = JSON.parse(readFileSync(path.join(outDir, 'current/client/reviews.json'), 'utf8')) as { reviews: Published[] };
  return reviews.find((r) => r.id === id) as Published;
}
const labels = (record: Published) => record.aspects.map((a) => `${a.aspect}:${a.sentiment}`);

function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toMatch(from);
  writeFileSync(file, text.replace(from, to));
}

describe('the cache of prepared reviews', { timeout: 1_200_000 }, () => {
  const out = path.join(scratch, 'out');

  it('is written before Astro runs, so a build that fails in Astro leaves it for the next', () => {
    const failed = build(out, { TEST_FAIL_ASTRO: '1' });
    expect(failed.status, failed.output).toBe(1);
    expect(failed.output).toContain('astro build failed');
    expect(failed.counts).toEqual({ files: 5, cached: 0, prepared: 5 });
    const next = build(out);
    expect(next.status, next.output).toBe(0);
    expect(next.counts).toEqual({ files: 5, cached: 5, prepared: 0 });
  });

  it('prepares only an added review, and gives the same bytes as a build without a cache', () => {
    addReview(content, 'f-six', 'New gutters');
    const rebuilt = build(out);
    expect(rebuilt.counts).toEqual({ files: 6, cached: 5, prepared: 1 });
    const cold = path.join(scratch, 'cold');
    expect(build(cold).counts).toEqual({ files: 6, cached: 0, prepared: 6 });
    expectSameOutput(out, cold);
  });

  it('reads only the files that changed since their entry was made, even when an edit keeps the size and the modification time', () => {
    const again = build(out);
    expect(again.counts).toEqual({ files: 6, cached: 6, prepared: 0 });
    expect(again.unread).toBe(6);
    // Same size, and the modification time set back: the change time still tells the file was written.
    const file = path.join(content, 'reviews/f-six.md');
    const { atime, mtime } = statSync(file);
    edit(file, 'title: New gutters', 'title: New Gutters');
    utimesSync(file, atime, mtime);
    const rebuilt = build(out);
    expect(rebuilt.counts).toEqual({ files: 6, cached: 5, prepared: 1 });
    expect(rebuilt.unread).toBe(5);
    expect(review(out, 'f-six').title).toBe('New Gutters');
    edit(file, 'title: New Gutters', 'title: New gutters');
    expect(build(out).counts).toEqual({ files: 6, cached: 5, prepared: 1 });
  });

  it('ignores a damaged cache file, and prepares its reviews again', () => {
    const [context] = readdirSync(path.join(out, 'cache/reviews'));
    const dir = path.join(out, 'cache/reviews', context as string);
    for (const shard of readdirSync(dir)) {
      const file = path.join(dir, shard);
      writeFileSync(file, readFileSync(file).subarray(0, 100));
    }
    const rebuilt = build(out);
    expect(rebuilt.status, rebuilt.output).toBe(0);
    expect(rebuilt.counts).toEqual({ files: 6, cached: 0, prepared: 6 });
    expectSameOutput(out, path.join(scratch, 'cold'));
    expect(build(out).counts).toEqual({ files: 6, cached: 6, prepared: 0 });
  });

  it('starts again when aspects.json changes, and the aspects follow it', () => {
    expect(labels(review(out, 'b-two'))).not.toContain('communication:negative');
    writeFileSync(path.join(content, 'aspects.json'), JSON.stringify({ aspects: { communication: { cues: ['appointment'] } } }));
    const rebuilt = build(out);
    expect(rebuilt.counts).toEqual({ files: 6, cached: 0, prepared: 6 });
    expect(labels(review(out, 'b-two'))).toContain('communication:negative');
  });

  it('starts again when business.json changes, and the mentions follow it', () => {
    expect(review(out, 'a-one').services.map((s) => s.id)).not.toContain('chimney-work');
    edit(path.join(content, 'business.json'), '"services": [', '"services": [\n    { "id": "chimney-work", "name": "Chimney work", "aliases": ["chimney"] },');
    const rebuilt = build(out);
    expect(rebuilt.counts).toEqual({ files: 6, cached: 0, prepared: 6 });
    expect(review(out, 'a-one').services.map((s) => s.id)).toContain('chimney-work');
  });

  it("starts again when the code changes (here the analyzer's model), and the aspects follow it", () => {
    expect(labels(review(out, 'e-five'))).toContain('workmanship:negative');
    edit(path.join(project, 'src/domain/insights/absa/model.json'), /"thresholds":\[[^\]]*\]/, `"thresholds":[${Array(10).fill(0.99).join(',')}]`);
    const rebuilt = build(out);
    expect(rebuilt.counts).toEqual({ files: 6, cached: 0, prepared: 6 });
    expect(labels(review(out, 'e-five'))).not.toContain('workmanship:negative');
    // One cache per context: the previous contexts' files are gone.
    expect(readdirSync(path.join(out, 'cache/reviews'))).toHaveLength(1);
  });

  it('keeps what a build with bad content prepared, for the build after the fix', () => {
    addReview(content, 'g-seven', 'Quick patch');
    edit(path.join(content, 'reviews/c-three.md'), 'rating: 4', 'rating: 7');
    const bad = build(out);
    expect(bad.status).toBe(1);
    expect(bad.output).toContain('reviews/c-three.md › rating');
    edit(path.join(content, 'reviews/c-three.md'), 'rating: 7', 'rating: 4');
    // g-seven was prepared by the failed build; c-three is prepared again, as it was fixed.
    expect(build(out).counts).toEqual({ files: 7, cached: 6, prepared: 1 });
  });
});
