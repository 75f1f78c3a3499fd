/**
 * The request paths `npm run bench -- paths` measures, as requests, and one path's
 * measurement: the server's answer is checked, its bytes written to a file, and a
 * bare server answering those bytes is sent the same request in alternating rounds with it.
 */
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { compare, type Load, type Target } from './load.ts';
import { startBareServer, type BenchServer } from './processes.ts';
import { BENCH_DIR } from './site.ts';
import { fmt, markdownTable } from './table.ts';

const GOAL = 0.8;
const BROWSER_GOAL = 0.5;

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const JSON_RPC = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

export type Request = { path: string; method?: 'POST'; headers?: Record<string, string>; body?: string };

function mcp(method: string, params: Record<string, unknown>, era: '2025-06-18' | '2026-07-28', session: string): Request {
  const modern = era === '2026-07-28';
  const name = typeof params.name === 'string' ? params.name : undefined;
  const headers: Record<string, string> = { ...JSON_RPC, 'MCP-Protocol-Version': era };
  if (modern) Object.assign(headers, { 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) });
  else headers['Mcp-Session-Id'] = session;
  return { path: '/mcp', method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: modern ? { ...params, _meta: ENVELOPE } : params }) };
}

/** Every path the table measures, by name; `session`: the Mcp-Session-Id of the 2025-06-18 rows (see INITIALIZE). */
export function paths(session: string): [string, Request][] {
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

/** The initialize request whose answer's Mcp-Session-Id the 2025-06-18 rows carry. */
export const INITIALIZE: Request = {
  path: '/mcp',
  method: 'POST',
  headers: JSON_RPC,
  body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
};

async function startSession(url: string): Promise<string> {
  const res = await fetch(`${url}${INITIALIZE.path}`, { method: 'POST', headers: INITIALIZE.headers, body: INITIALIZE.body });
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

export interface PathRow {
  name: string;
  bytes: number;
  app: Load;
  bare: Load;
  /** For a POST: the floor server (reads and parses the body, then answers the same bytes), sent the same request. */
  floor?: Load;
}

async function measurePath(server: BenchServer, name: string, request: Request, { seconds, rounds }: { seconds: number; rounds: number }): Promise<PathRow> {
  const bytes = await answerOf(server.url, request);
  const bodyFile = path.join(BENCH_DIR, 'paths-body.bin');
  writeFileSync(bodyFile, bytes);
  const bare = await startBareServer(bodyFile);
  const floor = request.method === 'POST' ? await startBareServer(bodyFile, { floor: true }) : undefined;
  try {
    // Every server is sent the very same request (method, path, headers, body): only what each does with it differs.
    const targets = [target(server.url, request), target(bare.url, request), ...(floor ? [target(floor.url, request)] : [])];
    const serverCpu = [server.cpuSeconds, bare.cpuSeconds, floor?.cpuSeconds];
    const [app, bareLoad, floorLoad] = await compare(targets, { seconds, rounds, serverCpu });
    return { name, bytes: bytes.length, app: app as Load, bare: bareLoad as Load, ...(floorLoad ? { floor: floorLoad } : {}) };
  } finally {
    await Promise.all([bare.stop(), floor?.stop()]);
  }
}

/** Every path in turn, each against its own bare server. */
export async function measurePaths(server: BenchServer, options: { seconds: number; rounds: number }): Promise<PathRow[]> {
  const session = await startSession(server.url);
  const rows: PathRow[] = [];
  for (const [name, request] of paths(session)) {
    rows.push(await measurePath(server, name, request, options));
    console.error(`measured ${name}`);
  }
  return rows;
}

/** The table, and the review browser against the search API for the same filters. */
export function pathsReport(rows: readonly PathRow[]): string {
  const lines = rows.map((r) => {
    // A body of megabytes may see no request of the bare server completed in a round: no ratio then.
    const ratio = r.bare.rps > 0 ? r.app.rps / r.bare.rps : undefined;
    return [
      r.name,
      `${fmt(r.bytes / 1024, 1)} KiB`,
      fmt(r.app.rps),
      fmt(r.bare.rps),
      ratio === undefined ? '?' : fmt(ratio, 2),
      fmt(r.app.p99),
      r.app.cpuMicros === undefined ? '' : fmt(r.app.cpuMicros),
      r.bare.cpuMicros === undefined ? '' : fmt(r.bare.cpuMicros),
      r.app.failures ? `${r.app.failures} failed` : ratio === undefined ? 'no ratio' : ratio >= GOAL ? 'ok' : 'below',
      r.floor ? `${fmt(r.floor.rps)} (${fmt(r.floor.rps / r.bare.rps, 2)})` : '',
    ];
  });
  const report = [markdownTable(['path', 'answer', 'server req/s', 'bare req/s', 'ratio', 'p99 ms', 'CPU us/req', 'bare CPU us/req', `goal ${GOAL}`, 'floor req/s (ratio)'], lines)];
  report.push(
    "\nCPU us/req: the server's CPU time (user and system, from /proc) per request it answered, ours and the bare one's: " +
      'what a request costs each whatever share of the 2 cores the load generator takes, so steadier than the ratio of rates.',
  );
  if (rows.some((r) => r.floor)) {
    report.push(
      '\nFloor: a server that reads the POST body and parses it as JSON before answering the same bytes: ' +
        'the least any JSON-RPC endpoint does. The bare server, sent the same request, never reads it.',
    );
  }
  const browser = rows.find((r) => r.name.startsWith('/reviews ('));
  const search = rows.find((r) => r.name === 'search, default');
  if (browser && search) {
    const ratio = browser.app.rps / search.app.rps;
    report.push(`\nReview browser against the search API (same filters, 20 reviews): ${fmt(ratio, 2)} (goal ${BROWSER_GOAL}: ${ratio >= BROWSER_GOAL ? 'ok' : 'below'}).`);
  }
  return report.join('\n');
}
