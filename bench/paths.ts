/**
 * `npm run bench -- paths`: every figure of issue 20 in one run, at BENCH_REVIEWS
 * generated reviews (default 100,000), each against its goal:
 *
 * 1. Request paths: the search, the sync, the review browser, a pre-rendered document,
 *    and MCP's tools/call and lists in both protocol eras, each next to a bare
 *    node:http server answering the same bytes, in alternating rounds (50
 *    connections, BENCH_ROUNDS rounds of BENCH_SECONDS seconds, default 2 x 5).
 * 2. The build: cold (empty OUT_DIR, so no cache either), then with one review more
 *    (the cache kept), time and peak resident memory of the process tree.
 * 3. The switch: a fresh server on the cold build under a search load (a light one
 *    while the process runs before its rename, see bench/support/switch.ts); the
 *    build with one review more runs, then `npm run rollback`; for each, how long
 *    after the process exited the server answers with the new state, the longest
 *    wait, the seconds without a completed request, and the server's peak memory.
 * 4. The server's memory: resident when idle after start, and after the path load.
 *
 * Every server here serves a real `npm run build` of the generated content, not the
 * copies with a swapped /reviews.json of the other benches (bench/support/site.ts).
 *
 * BENCH_PARTS=paths measures the request paths alone (1. and 4.), on the build a
 * previous run left (`npm run bench -- paths --keep`) when there is one: minutes
 * less per try while working on a path.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateContent, writeContent } from './generate-content.ts';
import { buildReport, timedBuild, timedRollback } from './support/build-timing.ts';
import { startAppServer, type BenchServer } from './support/processes.ts';
import { measurePaths, pathsReport, type PathRow } from './support/request-paths.ts';
import { BENCH_DIR, BENCH_SITE_URL } from './support/site.ts';
import { measureSwitch, switchReport, type SwitchFigures } from './support/switch.ts';
import { against, fmt, markdownTable } from './support/table.ts';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PATHS_ONLY = process.env.BENCH_PARTS === 'paths';
/** A server's memory right after start still holds what building its catalog left; it is read after this. */
const SETTLE_MS = 10_000;
const SWITCH_LOAD = { connections: 50, requests: [{ path: '/api/reviews/search' }] };
/** While a build runs before its switch (see bench/support/switch.ts). */
const LIGHT_LOAD = { ...SWITCH_LOAD, connections: 5, overallRate: 50 };
const IDLE_GOAL_MIB = 600;
const LOADED_GOAL_MIB = 1_024;

/** A word no generated review has: the search finds the added review by it, and only it. */
const MARK = 'quokkabench';
const ADDED_REVIEW = `---
author: "Bench M."
rating: 5
date: 2025-12-31
verified: true
verification: invoice
---
The crew fixed the flashing in one afternoon; ${MARK}.
`;
const PROBE_PATH = `/api/reviews/search?query=${MARK}&limit=1`;
const found = (body: string) => (JSON.parse(body) as { total: number }).total > 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const progress = (line: string) => console.error(`[paths] ${line}`);

async function settledRss(server: BenchServer): Promise<number | undefined> {
  await sleep(SETTLE_MS);
  return server.rssMiB();
}

const mib = (value: number | undefined) => (value === undefined ? '?' : `${fmt(value)} MiB`);

interface PathsPart {
  rows: PathRow[];
  startMs: number;
  memory: { idle?: number | undefined; loaded?: number | undefined; peak?: number | undefined };
}

/** The request paths on a fresh server, and the memory that server holds before and after them. */
async function measurePathsPart(outDir: string): Promise<PathsPart> {
  progress('request paths');
  const server = await startAppServer(outDir, BENCH_SITE_URL);
  const part: PathsPart = { rows: [], startMs: server.startMs, memory: {} };
  try {
    part.memory.idle = await settledRss(server);
    part.rows = await measurePaths(server, { seconds: SECONDS, rounds: ROUNDS });
    part.memory.loaded = server.rssMiB();
    part.memory.peak = server.peakRssMiB();
  } finally {
    await server.stop();
  }
  return part;
}

function printPaths({ rows }: PathsPart): void {
  console.log(`\n## Request paths at ${fmt(REVIEWS)} reviews (${ROUNDS} x ${SECONDS} s, 50 connections, medians)\n`);
  console.log(pathsReport(rows));
}

function printMemory({ startMs, memory }: PathsPart): void {
  console.log(`\n## Server memory at ${fmt(REVIEWS)} reviews (goals are for 100,000)\n`);
  console.log(
    markdownTable(
      ['server', 'resident'],
      [
        [`started in ${fmt(startMs)} ms, idle ${SETTLE_MS / 1000} s`, memory.idle === undefined ? '?' : against(mib(memory.idle), `≤ ${IDLE_GOAL_MIB} MiB`, memory.idle <= IDLE_GOAL_MIB)],
        ['after the path load', memory.loaded === undefined ? '?' : against(mib(memory.loaded), `≤ ${fmt(LOADED_GOAL_MIB)} MiB`, memory.loaded <= LOADED_GOAL_MIB)],
        ['peak (VmHWM), start and path load', mib(memory.peak)],
      ],
    ),
  );
}

const contentDir = path.join(BENCH_DIR, `paths-content-${REVIEWS}`);
const outDir = path.join(BENCH_DIR, `paths-out-${REVIEWS}`);
if (PATHS_ONLY && existsSync(path.join(outDir, 'current'))) {
  progress(`paths only, on the build in ${outDir}`);
  const part = await measurePathsPart(outDir);
  printPaths(part);
  printMemory(part);
  process.exit(0);
}
progress(`writing ${fmt(REVIEWS)} generated reviews to ${contentDir}`);
writeContent(contentDir, generateContent(REVIEWS));
rmSync(outDir, { recursive: true, force: true });
progress('cold build');
const cold = await timedBuild(contentDir, outDir, BENCH_SITE_URL);

const paths = await measurePathsPart(outDir);
if (PATHS_ONLY) {
  printPaths(paths);
  printMemory(paths);
  process.exit(0);
}

progress('switch under load: build with one review more, then rollback');
const switchServer = await startAppServer(outDir, BENCH_SITE_URL);
const switches: [string, SwitchFigures][] = [];
let switchIdle: number | undefined;
try {
  switchIdle = await settledRss(switchServer);
  writeFileSync(path.join(contentDir, 'reviews/zz-bench-added.md'), ADDED_REVIEW);
  const common = { server: switchServer, outDir, load: SWITCH_LOAD, light: LIGHT_LOAD };
  const build = await measureSwitch({ ...common, change: () => timedBuild(contentDir, outDir, BENCH_SITE_URL), probe: { path: PROBE_PATH, isNew: found } });
  switches.push(['build, one review more', build]);
  if (!build.serverEnded) {
    progress('rollback');
    const rollback = await measureSwitch({ ...common, change: () => timedRollback(outDir), probe: { path: PROBE_PATH, isNew: (body) => !found(body) } });
    switches.push(['rollback', rollback]);
  }
} finally {
  await switchServer.stop();
}

printPaths(paths);
console.log(`\n## Build at ${fmt(REVIEWS)} reviews (goals are for 100,000)\n`);
const oneMore = switches[0]?.[1].run;
console.log(oneMore ? buildReport(cold, oneMore) : `cold: ${fmt(cold.seconds, 1)} s, ${mib(cold.peakTreeMiB)}`);
console.log(
  `\n## Switch under load (${SWITCH_LOAD.connections} connections on ${SWITCH_LOAD.requests[0]?.path}, ` +
    `${LIGHT_LOAD.overallRate} req/s while the process runs before the rename; this server idle: ${mib(switchIdle)})\n`,
);
console.log(switchReport(switches, switchIdle));
printMemory(paths);
