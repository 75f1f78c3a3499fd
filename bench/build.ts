/**
 * Build time and peak memory at 1,000 and 10,000 generated reviews: a real
 * `npm run build` (content check, Astro, precompression) in a child process, its
 * process tree's resident memory sampled every 50 ms (Linux /proc).
 *
 *   npm run bench -- build
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generateContent, writeContent } from './generate-content.ts';
import { timedBuild } from './support/build-timing.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const COUNTS = [1_000, 10_000];

const rows: string[] = [];
for (const count of COUNTS) {
  const contentDir = path.join(ROOT, 'tmp/bench', `build-content-${count}`);
  const outDir = path.join(ROOT, 'tmp/bench', `build-out-${count}`);
  if (!existsSync(path.join(contentDir, 'business.json'))) writeContent(contentDir, generateContent(count));
  rmSync(outDir, { recursive: true, force: true });
  const { seconds, peakTreeMiB } = await timedBuild(contentDir, outDir, 'https://bench.example');
  const size = readFileSync(path.join(outDir, 'client/reviews.json')).length;
  rows.push(`${String(count).padStart(7)}  ${seconds.toFixed(1).padStart(7)} s  ${peakTreeMiB.toFixed(0).padStart(6)} MiB  ${(size / 2 ** 20).toFixed(1).padStart(6)} MiB`);
  rmSync(outDir, { recursive: true, force: true });
}
console.log('reviews     build    peak RSS  reviews.json');
for (const row of rows) console.log(row);
