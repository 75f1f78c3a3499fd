/**
 * `npm run bench -- paths`: every request path of the server next to a bare
 * node:http server answering the same bytes, in alternating rounds of the same run,
 * at BENCH_REVIEWS generated reviews (default 100,000): the search, the sync, the
 * review browser, a pre-rendered document, and MCP's tools/call and lists in both
 * protocol eras. 50 connections, BENCH_ROUNDS rounds of BENCH_SECONDS seconds
 * (default 2 x 5). Prints requests per second, p99, the server's CPU time per request
 * and the ratio to the bare server (goal: 0.8), and the review browser against the
 * search API for the same filters (goal: 0.5). The site is made as for the other
 * benchmarks (bench/support/site.ts).
 */
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { compare, type Load, type Target } from './support/load.ts';
import { startAppServer, startBareServer, type BenchServer } from './support/processes.ts';
import { BENCH_DIR, BENCH_SITE_URL, siteWithReviews } from './support/site.ts';
import { fmt, markdownTable } from './support/table.ts';

const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const GOAL = 0.8;
const BROWSER_GOAL = 0.5;

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const JSON_RPC = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

type Request = { path: string; method?: 'POST'; headers?: Record<string, string>; body?: string };

function mcp(method: string, params: Record<string, unknown>, era: '2025-06-18' | '2026-07-28', session: string): Request {
  const modern = era === '2026-07-28';
  const name = typeof params.name === 'string' ? params.name : undefined;
  const headers: Record<string, string> = { ...JSON_RPC, 'MCP-Protocol-Version': era };
  if (modern) Object.assign(headers, { 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) });
  else headers['Mcp-Session-Id'] = session;
  return { path: '/mcp', method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: modern ? { ...params, _meta: ENVELOPE } : params }) };
}

function paths(session: string): [string, Request][] {
  return [
    ['search, default', { path: '/api/reviews/search' }],
    ['search, limit=100', { path: '/api/reviews/search?limit=100' }],
    ['since (a year of reviews)', { path: '/api/reviews/since/2025-06-01' }],
    ['/reviews (review browser)', { path: '/reviews' }],
    ['/reviews.json (br)', { path: '/reviews.json', headers: { 'Accept-Encoding': 'br' } }],
    ['MCP tools/call search_reviews, 2025-06-18', mcp('tools/call', { name: 'search_reviews', arguments: {} }, '2025-06-18', session)],
    ['MCP tools/call search_reviews, 2026-07-28', mcp('tools/call', { name: 'search_reviews', arguments: {} }, '2026-07-28', session)],
    ['MCP tools/list, 2025-06-18', mcp('tools/list', {}, '2025-06-18', session)],
    ['MCP tools/list, 2026-07-28', mcp('tools/list', {}, '2026-07-28', session)],
    ['MCP prompts/list, 2026-07-28', mcp('prompts/list', {}, '2026-07-28', session)],
  ];
}

async function startSession(url: string): Promise<string> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: JSON_RPC,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  const session = res.headers.get('mcp-session-id');
  if (!session) throw new Error(`initialize answered ${res.status} without a session id`);
  return session;
}

const target = (base: string, request: Request): Target =>
  request.method === 'POST'
    ? { url: `${base}${request.path}`, method: 'POST', headers: request.headers ?? {}, body: request.body ?? '' }
    : { url: `${base}${request.path}`, method: 'GET', headers: request.headers ?? {} };

/**
 * The bytes the server answers, as sent (compressed when asked: node:http, unlike
 * fetch, does not decode them), checked to be a 200 and, for MCP, a result.
 */
async function answerOf(base: string, request: Request): Promise<Buffer> {
  const { status, bytes } = await new Promise<{ status: number; bytes: Buffer }>((resolve, reject) => {
    const req = httpRequest(`${base}${request.path}`, { method: request.method ?? 'GET', headers: request.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(request.body);
  });
  if (status !== 200) throw new Error(`${request.path} answered ${status}: ${bytes.subarray(0, 300).toString()}`);
  if (request.path === '/mcp' && !bytes.includes('"result"')) throw new Error(`${request.body} answered no result: ${bytes.subarray(0, 300).toString()}`);
  return bytes;
}

interface Row {
  name: string;
  bytes: number;
  app: Load;
  bare: Load;
}

async function measurePath(server: BenchServer, name: string, request: Request): Promise<Row> {
  const bytes = await answerOf(server.url, request);
  const bodyFile = path.join(BENCH_DIR, 'paths-body.bin');
  writeFileSync(bodyFile, bytes);
  const bare = await startBareServer(bodyFile);
  try {
    const [app, bareLoad] = await compare([target(server.url, request), bare.url], { seconds: SECONDS, rounds: ROUNDS, serverCpu: server.cpuSeconds });
    return { name, bytes: bytes.length, app, bare: bareLoad };
  } finally {
    await bare.stop();
  }
}

const { outDir } = siteWithReviews(REVIEWS);
const server = await startAppServer(outDir, BENCH_SITE_URL);
const idleRss = server.rssMiB();
const rows: Row[] = [];
let peakRss: number | undefined;
try {
  const session = await startSession(server.url);
  for (const [name, request] of paths(session)) {
    rows.push(await measurePath(server, name, request));
    console.error(`measured ${name}`);
  }
  peakRss = server.peakRssMiB();
} finally {
  await server.stop();
}

const lines = rows.map((r) => {
  const ratio = r.app.rps / r.bare.rps;
  return [
    r.name,
    `${fmt(r.bytes / 1024, 1)} KiB`,
    fmt(r.app.rps),
    fmt(r.bare.rps),
    fmt(ratio, 2),
    fmt(r.app.p99),
    r.app.cpuMicros === undefined ? '' : fmt(r.app.cpuMicros),
    r.app.failures ? `${r.app.failures} failed` : ratio >= GOAL ? 'ok' : 'below',
  ];
});
console.log(`\n## Request paths at ${fmt(REVIEWS)} reviews (${ROUNDS} x ${SECONDS} s, 50 connections, medians)\n`);
console.log(markdownTable(['path', 'answer', 'server req/s', 'bare req/s', 'ratio', 'p99 ms', 'CPU us/req', `goal ${GOAL}`], lines));
const browser = rows.find((r) => r.name.startsWith('/reviews ('));
const search = rows.find((r) => r.name === 'search, default');
if (browser && search) {
  const ratio = browser.app.rps / search.app.rps;
  console.log(`\nReview browser against the search API (same filters, 20 reviews): ${fmt(ratio, 2)} (goal ${BROWSER_GOAL}: ${ratio >= BROWSER_GOAL ? 'ok' : 'below'}).`);
}
console.log(`Server: started in ${fmt(server.startMs)} ms; resident ${idleRss === undefined ? '?' : fmt(idleRss)} MiB after start, peak ${peakRss === undefined ? '?' : fmt(peakRss)} MiB.`);
