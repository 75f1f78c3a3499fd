/**
 * `npm run bench`: every benchmark, one after the other, each in its own process
 * so that one's memory does not weigh on the next. `npm run bench -- search`
 * runs only the named ones. It warns up front that this takes minutes, prints
 * each one's time, and removes what the benchmarks wrote under tmp/ when it ends
 * (`-- --keep` keeps it, to look at or to rerun faster). To add a benchmark, add a
 * line to BENCHES.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const BENCHES: Record<string, string> = {
  build: 'build.ts',
  search: 'search.ts',
  'reviews-page': 'reviews-page.ts',
  mcp: 'mcp.ts',
  websub: 'websub.ts',
  absa: 'absa.ts',
  deploy: 'deploy.ts',
  'read-content': 'read-content.ts',
  paths: 'paths.ts',
  'request-cost': 'request-cost.ts',
  insights: 'insights.ts',
};

/** What the benchmarks write (generated content, builds, copies with 100,000 reviews: hundreds of MB). */
const SCRATCH = ['tmp/bench', 'tmp/bench-builds'].map((dir) => path.join(import.meta.dirname, '..', dir));

const { values, positionals } = parseArgs({ allowPositionals: true, options: { keep: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
if (values.help) {
  console.log(
    `Usage: npm run bench [-- NAME…] [-- --keep]\n\nBenchmarks: ${Object.keys(BENCHES).join(', ')}.\n` +
      'BENCH_SECONDS and BENCH_ROUNDS (default 3 and 3; for paths 5 and 2) set the length of each load round; ' +
      'BENCH_REVIEWS the reviews paths builds and serves (default 100,000); BENCH_PARTS=paths measures its request paths alone, on the build a run with --keep left.',
  );
  process.exit(0);
}
const unknown = positionals.filter((name) => !(name in BENCHES));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHES).join(', ')}.`);
  process.exit(1);
}
const chosen = Object.entries(BENCHES).filter(([name]) => positionals.length === 0 || positionals.includes(name));
console.log(
  `Running ${chosen.map(([name]) => name).join(', ')}. This takes minutes, not seconds: the whole set ran over 9 minutes ` +
    'on an idle 2-core machine (issue 15), and several times that on a busy one; each benchmark prints its time when done. ' +
    '`npm run bench -- NAME` runs one; `-- --help` lists them.',
);

function removeScratch(): void {
  if (values.keep) return void console.log(`Kept ${SCRATCH.filter(existsSync).map((dir) => path.relative(process.cwd(), dir)).join(', ') || 'nothing'} (--keep).`);
  const removed = SCRATCH.filter(existsSync);
  for (const dir of removed) rmSync(dir, { recursive: true, force: true });
  if (removed.length) console.log(`Removed ${removed.map((dir) => path.relative(process.cwd(), dir)).join(', ')}.`);
}

// Ctrl-C stops the running benchmark (it gets the signal too) and still cleans up.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    removeScratch();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

const started = performance.now();
let failed = false;
for (const [name, file] of chosen) {
  console.log(`\n== ${name}`);
  const benchStart = performance.now();
  const run = spawnSync(process.execPath, [path.join(import.meta.dirname, file)], { stdio: 'inherit' });
  const seconds = (performance.now() - benchStart) / 1000;
  console.log(`(${name}: ${seconds.toFixed(0)} s)`);
  if (run.status !== 0) {
    console.error(`${name} failed (exit ${run.status ?? run.signal}).`);
    failed = true;
  }
}
console.log(`\nAll done in ${((performance.now() - started) / 60_000).toFixed(1)} minutes.`);
removeScratch();
process.exit(failed ? 1 : 0);
