/**
 * Build time and peak memory at 1,000 and 10,000 generated reviews: a real
 * `npm run build` (content check, Astro, precompression) in a child process, its
 * process tree's resident memory sampled every 50 ms (Linux /proc). Each size is
 * built three times into one OUT_DIR: from nothing (cold), again with nothing
 * changed, and with one review file added (the cache of prepared reviews at work).
 * BENCH_BUILD_COUNTS=100000 chooses other sizes.
 *
 *   npm run bench -- build
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generateContent, writeContent } from './generate-content.ts';
import { timedBuild, type TimedRun } from './support/build-timing.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const COUNTS = process.env.BENCH_BUILD_COUNTS?.split(',').map(Number) ?? [1_000, 10_000];

const rows: string[] = [];
const row = (count: number, kind: string, { seconds, peakTreeMiB }: TimedRun, size: number) =>
  `${String(count).padStart(7)}  ${kind.padEnd(9)} ${seconds.toFixed(1).padStart(7)} s  ${peakTreeMiB.toFixed(0).padStart(6)} MiB  ${(size / 2 ** 20).toFixed(1).padStart(6)} MiB`;
for (const count of COUNTS) {
  const contentDir = path.join(ROOT, 'tmp/bench', `build-content-${count}`);
  const outDir = path.join(ROOT, 'tmp/bench', `build-out-${count}`);
  const added = path.join(contentDir, 'reviews/zz-added.md');
  if (!existsSync(path.join(contentDir, 'business.json'))) writeContent(contentDir, generateContent(count));
  rmSync(added, { force: true });
  rmSync(outDir, { recursive: true, force: true });
  const size = () => readFileSync(path.join(outDir, 'client/reviews.json')).length;
  const build = () => timedBuild(contentDir, outDir, 'https://bench.example');
  rows.push(row(count, 'cold', await build(), size()));
  rows.push(row(count, 'unchanged', await build(), size()));
  const [first] = readdirSync(path.join(contentDir, 'reviews')).sort();
  copyFileSync(path.join(contentDir, 'reviews', first as string), added);
  rows.push(row(count, 'one added', await build(), size()));
  rmSync(added, { force: true });
  rmSync(outDir, { recursive: true, force: true });
}
console.log('reviews  build        time    peak RSS  reviews.json');
for (const line of rows) console.log(line);
