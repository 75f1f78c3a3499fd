/**
 * `node bench/search.ts`: search over real HTTP at 10,000 and 100,000 generated
 * reviews, 50 connections, next to a bare node:http server answering a
 * pre-built body of the same bytes, in alternating rounds of the same run
 * (BENCH_SECONDS, BENCH_ROUNDS). Prints requests per second,
 * p50/p99 latency, the ratio to the bare server, the server's start time (the
 * catalog is built then) and its peak memory.
 *
 * Goals: at least 0.25 of the bare server's throughput and p99 under 20 ms at
 * 100,000 reviews, for every query. See bench/support/site.ts for how the big
 * sites are made without a big Astro build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compare, type Load } from './support/load.ts';
import { startAppServer, startBareServer } from './support/processes.ts';
import { BENCH_DIR, BENCH_SITE_URL, siteWithReviews } from './support/site.ts';
import { fmt, markdownTable } from './support/table.ts';

const SIZES = [10_000, 100_000];
const QUERIES: [string, string][] = [
  ['no filter', ''],
  ['one rating', '?rating=3'],
  ['date range', '?since=2021-01-01&until=2021-06-30'],
  ['text query', '?query=flashing'],
  ['technician', '?mentions_technician=Tomas'],
  ['combined', '?min_rating=4&query=crew&since=2024-01-01'],
];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL = { ratio: 0.25, p99: 20 };

interface Row {
  size: number;
  name: string;
  total: number;
  bodyBytes: number;
  app: Load;
  bare: Load;
}

async function benchSize(size: number): Promise<{ rows: Row[]; startMs: number; peakMiB: number | undefined; datasetBytes: number }> {
  const { outDir, bytes } = await siteWithReviews(size);
  const server = await startAppServer(outDir, BENCH_SITE_URL);
  const rows: Row[] = [];
  try {
    for (const [name, query] of QUERIES) {
      const url = `${server.url}/api/reviews/search${query}`;
      const res = await fetch(url);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.toString()}`);
      const bodyFile = path.join(BENCH_DIR, 'bare-body.json');
      writeFileSync(bodyFile, body);
      const bare = await startBareServer(bodyFile);
      try {
        const [app, bareLoad] = await compare([url, bare.url], { seconds: SECONDS, rounds: ROUNDS });
        rows.push({ size, name, total: (JSON.parse(body.toString()) as { total: number }).total, bodyBytes: body.length, app, bare: bareLoad });
      } finally {
        await bare.stop();
      }
    }
    return { rows, startMs: server.startMs, peakMiB: server.peakRssMiB(), datasetBytes: bytes };
  } finally {
    await server.stop();
  }
}

function table(rows: Row[]): string {
  const head = ['reviews', 'query', 'matches', 'body', 'search req/s', 'p50 ms', 'p99 ms', 'bare req/s', 'bare p99', 'ratio', 'goal'];
  const lines = rows.map((r) => {
    const ratio = r.app.rps / r.bare.rps;
    const ok = r.size < 100_000 || (ratio >= GOAL.ratio && r.app.p99 < GOAL.p99 && r.app.failures === 0);
    return [
      fmt(r.size),
      r.name,
      fmt(r.total),
      `${fmt(r.bodyBytes / 1024, 1)} KiB`,
      fmt(r.app.rps),
      fmt(r.app.p50),
      fmt(r.app.p99),
      fmt(r.bare.rps),
      fmt(r.bare.p99),
      fmt(ratio, 2),
      r.size < 100_000 ? '' : ok ? 'met' : r.app.failures ? `${r.app.failures} failures` : 'MISSED',
    ];
  });
  return markdownTable(head, lines);
}

export async function runSearchBench(): Promise<void> {
  mkdirSync(BENCH_DIR, { recursive: true });
  console.log(
    `Search over HTTP, 50 connections: median of ${ROUNDS} alternating rounds of ${SECONDS} s after a 1 s warm-up; bare = node:http answering the same body.`,
  );
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const size of SIZES) {
    const result = await benchSize(size);
    rows.push(...result.rows);
    notes.push(
      `${fmt(size)} reviews: reviews.json ${fmt(result.datasetBytes / 2 ** 20, 1)} MiB; server start, catalog built, ${fmt(result.startMs)} ms; server peak RSS ${result.peakMiB === undefined ? 'n/a' : `${fmt(result.peakMiB)} MiB`}.`,
    );
  }
  console.log(`\n${table(rows)}\n`);
  for (const note of notes) console.log(note);
  console.log(`Goal at 100,000 reviews: ratio ≥ ${GOAL.ratio} and p99 < ${GOAL.p99} ms for every query.`);
}

if (import.meta.main) await runSearchBench();
