/**
 * `node bench/mcp.ts`: the MCP tool `search_reviews` in both protocol eras (a
 * `tools/call` POSTed to /mcp with a 2025-06-18 session id, and a stateless
 * 2026-07-28 one with its `_meta` envelope and headers) next to
 * `GET /api/reviews/search` with the same parameters, on the same server, in
 * alternating rounds of the same run
 * (BENCH_SECONDS, BENCH_ROUNDS): 50 connections, requests per second and p50/p99
 * latency, at 10,000 and 100,000 generated reviews (BENCH_SIZES).
 *
 * An MCP answer carries each review twice (structuredContent and its JSON as
 * text) inside a JSON-RPC envelope: twice the bytes, the price of the protocol.
 * Goal: at least half of the HTTP route's throughput for every query. Beside
 * requests per second, the server's CPU time per request (steadier on a shared
 * machine, see load.ts).
 */
import { mkdirSync } from 'node:fs';
import { compare, type Load } from './support/load.ts';
import { startAppServer } from './support/processes.ts';
import { BENCH_DIR, BENCH_SITE_URL, siteWithReviews } from './support/site.ts';
import { fmt, markdownTable } from './support/table.ts';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
// The bench compares the same page over MCP and HTTP; under the default token budget a page
// of long reviews comes back shorter over MCP. The servers (started with this environment)
// still count every page against the budget, so its cost is measured.
process.env.MCP_RESULT_MAX_TOKENS ??= '1000000';
const QUERIES: [string, Record<string, string | number>][] = [
  ['no filter', {}],
  ['one rating', { rating: 3 }],
  ['text query', { query: 'flashing' }],
  ['technician', { mentions_technician: 'Tomas' }],
  ['combined', { min_rating: 4, query: 'crew', since: '2024-01-01' }],
  // A long page the tool does not cut: whole reviews, or 100 with these fields, pass the MCP result budget (MCP_RESULT_MAX_TOKENS).
  ['page of 75, 5 fields', { limit: 75, fields: 'id,rating,date,title,text' }],
];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
// Five rounds: the medians move less between runs on this shared machine than with three.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GOAL = 0.5;

interface Row {
  size: number;
  name: string;
  mcpBytes: number;
  httpBytes: number;
  http: Load;
  mcp: Load;
  modern: Load;
}

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const MODERN_HEADERS = {
  'Content-Type': 'application/json',
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': 'tools/call',
  'Mcp-Name': 'search_reviews',
};

async function initialize(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
    }),
  });
  const session = res.headers.get('mcp-session-id');
  if (res.status !== 200 || !session) throw new Error(`initialize answered ${res.status} without a session id: ${await res.text()}`);
  return session;
}

async function benchSize(size: number): Promise<Row[]> {
  const { outDir } = await siteWithReviews(size);
  const server = await startAppServer(outDir, BENCH_SITE_URL);
  const mcpUrl = `${server.url}/mcp`;
  const rows: Row[] = [];
  try {
    const headers = { 'Content-Type': 'application/json', 'Mcp-Session-Id': await initialize(mcpUrl), 'MCP-Protocol-Version': '2025-06-18' };
    for (const [name, args] of QUERIES) {
      const httpUrl = `${server.url}/api/reviews/search?${new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]))}`;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_reviews', arguments: args } });
      // Both answer the same reviews before either is timed.
      const httpText = await (await fetch(httpUrl)).text();
      const mcpText = await (await fetch(mcpUrl, { method: 'POST', headers, body })).text();
      const modernBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_reviews', arguments: args, _meta: ENVELOPE } });
      const modernText = await (await fetch(mcpUrl, { method: 'POST', headers: MODERN_HEADERS, body: modernBody })).text();
      for (const [era, text] of [['2025-06-18', mcpText], ['2026-07-28', modernText]]) {
        const result = (JSON.parse(text as string) as { result?: { content: { text: string }[] } }).result;
        if (result?.content[0]?.text !== httpText) throw new Error(`${name}: search_reviews (${era}) and the HTTP search disagree:\n${(text as string).slice(0, 500)}`);
      }
      const [http, mcp, modern] = await compare(
        [httpUrl, { url: mcpUrl, method: 'POST', headers, body }, { url: mcpUrl, method: 'POST', headers: MODERN_HEADERS, body: modernBody }],
        { seconds: SECONDS, rounds: ROUNDS, serverCpu: server.cpuSeconds },
      );
      rows.push({ size, name, httpBytes: Buffer.byteLength(httpText), mcpBytes: Buffer.byteLength(mcpText), http, mcp, modern });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

function table(rows: Row[]): string {
  const head = [
    'reviews', 'query', 'HTTP body', 'MCP body', 'HTTP req/s', 'HTTP p99', 'MCP 2025 req/s', 'MCP 2025 p50', 'MCP 2025 p99', 'ratio', 'goal',
    'MCP 2026 req/s', 'MCP 2026 p99', '2026 ratio', 'CPU µs HTTP/2025/2026', 'CPU ratio 2025',
  ];
  const lines = rows.map((r) => {
    const ratio = r.mcp.rps / r.http.rps;
    const [httpCpu, mcpCpu] = [r.http.cpuMicros, r.mcp.cpuMicros];
    const cpuKnown = httpCpu !== undefined && mcpCpu !== undefined;
    const failures = r.mcp.failures + r.http.failures + r.modern.failures;
    return [
      fmt(r.size),
      r.name,
      `${fmt(r.httpBytes / 1024, 1)} KiB`,
      `${fmt(r.mcpBytes / 1024, 1)} KiB`,
      fmt(r.http.rps),
      fmt(r.http.p99),
      fmt(r.mcp.rps),
      fmt(r.mcp.p50),
      fmt(r.mcp.p99),
      fmt(ratio, 2),
      failures ? `${failures} failures` : ratio >= GOAL ? 'met' : 'MISSED',
      fmt(r.modern.rps),
      fmt(r.modern.p99),
      fmt(r.modern.rps / r.http.rps, 2),
      cpuKnown ? `${fmt(httpCpu)} / ${fmt(mcpCpu)} / ${r.modern.cpuMicros === undefined ? 'n/a' : fmt(r.modern.cpuMicros)}` : 'n/a',
      cpuKnown ? fmt(httpCpu / mcpCpu, 2) : 'n/a',
    ];
  });
  return markdownTable(head, lines);
}

export async function runMcpBench(): Promise<void> {
  mkdirSync(BENCH_DIR, { recursive: true });
  console.log(`MCP search_reviews (2025-06-18 with a session, 2026-07-28 stateless) vs GET /api/reviews/search: 50 connections, medians of ${ROUNDS} alternating rounds of ${SECONDS} s; latencies in ms.`);
  const rows: Row[] = [];
  for (const size of SIZES) rows.push(...(await benchSize(size)));
  console.log(`\n${table(rows)}\n`);
  console.log(`Goal: MCP throughput ≥ ${GOAL} × the HTTP route's, for every query.`);
  console.log(
    "CPU: the server's CPU time per request (Linux); its ratio, HTTP's over MCP's, is the throughput ratio a server would see " +
      'with its clients on other machines, and moves less than req/s when other work shares these 2 cores with the load generator.',
  );
}

if (import.meta.main) await runMcpBench();
