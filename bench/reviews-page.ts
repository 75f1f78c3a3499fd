/**
 * `node bench/reviews-page.ts`: the review browser (GET /reviews, a server-rendered
 * HTML page) at 100,000 generated reviews, over real HTTP with 50 connections, next to
 * the search API answering the same filters (GET /api/reviews/search, the same page of
 * 20), in alternating rounds of the same run (BENCH_SECONDS, BENCH_ROUNDS). Both read
 * the same in-memory catalog; the page adds Astro's rendering of 20 review cards and the
 * form. Prints requests per second, p50/p99 latency and the ratio to the API.
 *
 * Goal: p99 under 50 ms for every view at 100,000 reviews (a person's page, not a
 * machine's hot path), and no failures.
 */
import { compare, type Load } from './support/load.ts';
import { startAppServer } from './support/processes.ts';
import { BENCH_SITE_URL, siteWithReviews } from './support/site.ts';
import { fmt, markdownTable } from './support/table.ts';

const SIZE = Number(process.env.BENCH_PAGE_REVIEWS ?? 100_000);
const PAGE_SIZE = 20;
/** [name, filters, page] */
const VIEWS: [string, string, number][] = [
  ['no filter, page 1', '', 1],
  [`no filter, page ${fmt(Math.floor(SIZE / PAGE_SIZE / 2))} (the middle)`, '', Math.floor(SIZE / PAGE_SIZE / 2)],
  ['one rating', 'rating=3', 1],
  ['text query', 'query=flashing', 1],
  ['technician, page 5', 'mentions_technician=Tomas', 5],
  ['combined', 'min_rating=4&query=crew&since=2024-01-01', 1],
];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_P99_MS = 50;

interface Row {
  name: string;
  total: number;
  pageBytes: number;
  page: Load;
  api: Load;
}

const join = (filters: string, extra: string) => [filters, extra].filter(Boolean).join('&');

export async function runReviewsPageBench(): Promise<void> {
  console.log(
    `GET /reviews at ${fmt(SIZE)} reviews over HTTP, 50 connections: median of ${ROUNDS} alternating rounds of ${SECONDS} s after a 1 s warm-up; ` +
      'baseline = GET /api/reviews/search with the same filters and page (JSON, no rendering).',
  );
  const { outDir } = await siteWithReviews(SIZE);
  const server = await startAppServer(outDir, BENCH_SITE_URL);
  const rows: Row[] = [];
  let peakMiB: number | undefined;
  try {
    for (const [name, filters, page] of VIEWS) {
      const pageUrl = `${server.url}/reviews${filters || page > 1 ? `?${join(filters, page > 1 ? `page=${page}` : '')}` : ''}`;
      const apiUrl = `${server.url}/api/reviews/search?${join(filters, `limit=${PAGE_SIZE}&offset=${(page - 1) * PAGE_SIZE}`)}`;
      const [pageRes, apiRes] = await Promise.all([fetch(pageUrl), fetch(apiUrl)]);
      const html = await pageRes.text();
      const api = (await apiRes.json()) as { total: number; reviews: { id: string }[] };
      if (pageRes.status !== 200 || apiRes.status !== 200) throw new Error(`${pageUrl} ${pageRes.status}, ${apiUrl} ${apiRes.status}`);
      // The page shows exactly the API's reviews: the comparison is like for like.
      const shown = [...html.matchAll(/<article[^>]*\sid="review-([^"]+)"/g)].map((m) => m[1]);
      if (shown.join() !== api.reviews.map((r) => r.id).join()) throw new Error(`${pageUrl} shows other reviews than ${apiUrl}`);
      const [pageLoad, apiLoad] = await compare([pageUrl, apiUrl], { seconds: SECONDS, rounds: ROUNDS });
      rows.push({ name, total: api.total, pageBytes: Buffer.byteLength(html), page: pageLoad, api: apiLoad });
    }
  } finally {
    peakMiB = server.peakRssMiB();
    await server.stop();
  }
  const head = ['view', 'matches', 'page', 'page req/s', 'p50 ms', 'p99 ms', 'API req/s', 'API p99', 'ratio', 'goal'];
  const lines = rows.map((r) => [
    r.name,
    fmt(r.total),
    `${fmt(r.pageBytes / 1024, 1)} KiB`,
    fmt(r.page.rps),
    fmt(r.page.p50),
    fmt(r.page.p99),
    fmt(r.api.rps),
    fmt(r.api.p99),
    fmt(r.page.rps / r.api.rps, 2),
    r.page.failures ? `${r.page.failures} failures` : r.page.p99 < GOAL_P99_MS ? 'met' : 'MISSED',
  ]);
  console.log(`\n${markdownTable(head, lines)}\n`);
  console.log(`Server peak RSS ${peakMiB === undefined ? 'n/a' : `${fmt(peakMiB)} MiB`}. Goal: p99 < ${GOAL_P99_MS} ms for every view, no failures.`);
}

if (import.meta.main) await runReviewsPageBench();
