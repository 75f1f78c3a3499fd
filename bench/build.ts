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
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generateContent, writeContent } from './generate-content.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const COUNTS = process.env.BENCH_BUILD_COUNTS?.split(',').map(Number) ?? [1_000, 10_000];

/** Resident memory of a process and all its descendants, in bytes. */
function treeRss(pid: number): number {
  let total = 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) total += treeRss(Number(child));
    }
  } catch {
    // The process ended between two reads.
  }
  return total;
}

function build(contentDir: string, outDir: string): Promise<{ seconds: number; peakRss: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/build.ts')], {
      cwd: ROOT,
      env: { ...process.env, CONTENT_DIR: contentDir, OUT_DIR: outDir, SITE_URL: 'https://bench.example', ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let peakRss = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setInterval(() => (peakRss = Math.max(peakRss, treeRss(child.pid as number))), 50);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`build failed (${code}):\n${stderr}`));
      else resolve({ seconds: (performance.now() - started) / 1000, peakRss });
    });
  });
}

const rows: string[] = [];
const row = (count: number, kind: string, { seconds, peakRss }: { seconds: number; peakRss: number }, size: number) =>
  `${String(count).padStart(7)}  ${kind.padEnd(9)} ${seconds.toFixed(1).padStart(7)} s  ${(peakRss / 2 ** 20).toFixed(0).padStart(6)} MiB  ${(size / 2 ** 20).toFixed(1).padStart(6)} MiB`;
for (const count of COUNTS) {
  const contentDir = path.join(ROOT, 'tmp/bench', `build-content-${count}`);
  const outDir = path.join(ROOT, 'tmp/bench', `build-out-${count}`);
  const added = path.join(contentDir, 'reviews/zz-added.md');
  if (!existsSync(path.join(contentDir, 'business.json'))) writeContent(contentDir, generateContent(count));
  rmSync(added, { force: true });
  rmSync(outDir, { recursive: true, force: true });
  const size = () => readFileSync(path.join(outDir, 'client/reviews.json')).length;
  rows.push(row(count, 'cold', await build(contentDir, outDir), size()));
  rows.push(row(count, 'unchanged', await build(contentDir, outDir), size()));
  const [first] = readdirSync(path.join(contentDir, 'reviews')).sort();
  copyFileSync(path.join(contentDir, 'reviews', first as string), added);
  rows.push(row(count, 'one added', await build(contentDir, outDir), size()));
  rmSync(added, { force: true });
  rmSync(outDir, { recursive: true, force: true });
}
console.log('reviews  build        time    peak RSS  reviews.json');
for (const line of rows) console.log(line);
