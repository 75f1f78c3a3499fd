/**
 * Live switches under load: three builds of generated content (REVIEWS each) in one
 * OUT_DIR, the real server on it, and a steady autocannon load (/reviews.json as
 * brotli, a search, a sync). First a baseline with no switch, then 50 switches of
 * OUT_DIR/current between the three builds (the rename `npm run build` and
 * `npm run rollback` do), each awaited until /api/health names the new build.
 * Prints requests per second of both phases and their ratio, failed answers, the
 * time from the rename to the new build being served, and the server's resident
 * memory 3 s after the 1st, the 10th and the 50th switch (past the collection
 * the server runs 1 s after a switch, which itself took up to 1.4 s on a busy
 * 2-core machine, so that each figure is read after it). The gate
 * is issue 10's own: after the 50th switch, resident memory within 15% of what it
 * was after the 1st. Exits 1 otherwise, or on any failed answer.
 *
 *   npm run bench -- deploy            (DEPLOY_BENCH_REVIEWS=5000 or 10000 for larger builds)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { completeBuilds, switchToBuild } from '../src/build/build-layout.ts';
import { buildSite } from '../src/build/build-site.ts';
import { generateContent, writeContent } from './generate-content.ts';
import { startAppServer } from './support/processes.ts';
import { BENCH_DIR, BENCH_SITE_URL } from './support/site.ts';
import { startSteadyLoad } from './support/steady-load.ts';

const REVIEWS = Number(process.env.DEPLOY_BENCH_REVIEWS ?? 2_000);
const SWITCHES = Number(process.env.DEPLOY_BENCH_SWITCHES ?? 50);
const ROOT = path.resolve(import.meta.dirname, '..');
// One OUT_DIR per review count, so that runs at 2,000 and 5,000 reviews each keep their builds.
const outDir = path.join(BENCH_DIR, `deploy-${REVIEWS}`);

const LOAD = {
  connections: 8,
  requests: [
    { path: '/reviews.json', headers: { 'accept-encoding': 'br' } },
    { path: '/api/reviews/search?min_rating=4&limit=20' },
    { path: '/api/reviews/since/2025-06-01' },
  ],
};

async function servedId(url: string): Promise<string> {
  const res = await fetch(`${url}/api/health`);
  return ((await res.json()) as { build: { id: string } }).build.id;
}

// The three builds are kept for the next run with the same review count.
const marker = path.join(outDir, 'bench-reviews');
if (!existsSync(marker) || readFileSync(marker, 'utf8') !== String(REVIEWS) || completeBuilds(outDir).length < 3) {
  console.log(`Building 3 variants of ${REVIEWS} generated reviews into ${outDir}…`);
  for (let seed = 1; seed <= 3; seed++) {
    const contentDir = path.join(BENCH_DIR, `deploy-content-${REVIEWS}-${seed}`);
    writeContent(contentDir, generateContent(REVIEWS, seed));
    await buildSite({ projectRoot: ROOT, contentDir, siteUrl: BENCH_SITE_URL, outDir, stdio: 'pipe' });
  }
  writeFileSync(marker, String(REVIEWS));
}
const builds = completeBuilds(outDir).slice(-3);
const server = await startAppServer(outDir, BENCH_SITE_URL);
try {
  const baselineLoad = startSteadyLoad(server.url, LOAD);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const baseline = await baselineLoad.finish();
  const rssBefore = server.rssMiB() ?? NaN;

  const load = startSteadyLoad(server.url, LOAD);
  const latencies: number[] = [];
  const settledRss = async () => {
    // The server collects garbage 1 s after a switch (build-watcher.ts); read once that is done.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return server.rssMiB() ?? NaN;
  };
  let rssFirst = 0;
  let rssTenth = 0;
  for (let i = 1; i <= SWITCHES; i++) {
    const target = builds[i % builds.length] as string;
    const renamed = performance.now();
    switchToBuild(outDir, target);
    while ((await servedId(server.url)) !== target) await new Promise((resolve) => setTimeout(resolve, 10));
    latencies.push(performance.now() - renamed);
    if (i === 1) rssFirst = await settledRss();
    if (i === 10) rssTenth = await settledRss();
  }
  const rssLast = await settledRss();
  const switching = await load.finish();
  latencies.sort((a, b) => a - b);

  const f = (n: number, digits = 0) => n.toFixed(digits);
  console.log(`\n${REVIEWS} reviews per build; load: 8 connections over /reviews.json (br), a search, a sync`);
  console.log(`baseline, no switch:     ${f(baseline.rps)} req/s, ${baseline.failures} failed; RSS ${f(rssBefore, 1)} MiB`);
  console.log(`${SWITCHES} switches:             ${f(switching.rps)} req/s (${f(switching.rps / baseline.rps, 2)}x the baseline), ${switching.failures} failed`);
  console.log(`rename to served:        median ${f(latencies[Math.floor(latencies.length / 2)] as number)} ms, max ${f(latencies.at(-1) as number)} ms`);
  console.log(`RSS after switch 1:      ${f(rssFirst, 1)} MiB`);
  console.log(`RSS after switch 10:     ${f(rssTenth, 1)} MiB (${f(rssTenth / rssFirst, 3)}x switch 1)`);
  console.log(`RSS after switch ${SWITCHES}:     ${f(rssLast, 1)} MiB (${f(rssLast / rssFirst, 3)}x switch 1, must stay below 1.15; ${f(rssLast / rssTenth, 3)}x switch 10)`);
  if (switching.failures > 0 || baseline.failures > 0 || rssLast / rssFirst >= 1.15) process.exitCode = 1;
} finally {
  await server.stop();
}
