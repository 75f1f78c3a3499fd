/**
 * `npm run bench -- request-cost`: the CPU time one request costs the server's own
 * code, without the network: the app's request listener, on a real build, is handed
 * real `IncomingMessage`/`ServerResponse` objects over a socket that keeps nothing,
 * request after request, in rounds alternated with a floor handler that reads and
 * parses the body and answers the same bytes (bare-server.ts's floor, in process).
 *
 * Under load over loopback on this 2-core machine, a request costs the server about
 * four times what it costs here (the kernel's part, Node's parser, cold caches), and
 * those figures move by 10-20% between runs; these move by a few per cent, so a change
 * on a request path shows here first. BENCH_REQUESTS requests per round (default
 * 20,000), BENCH_ROUNDS rounds (default 7; the first is a warm-up and not counted).
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import { baseBuild, BENCH_SITE_URL } from './support/site.ts';
import { fmt, markdownTable } from './support/table.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Math.max(2, Number(process.env.BENCH_ROUNDS ?? 7));

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
interface Sent {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function mcp(method: string, params: Record<string, unknown>, era: '2025-06-18' | '2026-07-28'): Sent {
  const modern = era === '2026-07-28';
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': era };
  if (modern) Object.assign(headers, { 'Mcp-Method': method, ...(typeof params.name === 'string' ? { 'Mcp-Name': params.name } : {}) });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: modern ? { ...params, _meta: ENVELOPE } : params });
  return { method: 'POST', url: '/mcp', headers, body };
}

const REQUESTS_MEASURED: [string, Sent][] = [
  ['search, default', { method: 'GET', url: '/api/reviews/search', headers: {} }],
  ['MCP tools/call search_reviews, 2025-06-18', mcp('tools/call', { name: 'search_reviews', arguments: {} }, '2025-06-18')],
  ['MCP tools/call search_reviews, 2026-07-28', mcp('tools/call', { name: 'search_reviews', arguments: {} }, '2026-07-28')],
  ['MCP tools/list, 2025-06-18', mcp('tools/list', {}, '2025-06-18')],
  ['MCP tools/list, 2026-07-28', mcp('tools/list', {}, '2026-07-28')],
  ['MCP prompts/list, 2026-07-28', mcp('prompts/list', {}, '2026-07-28')],
];

/** A socket that takes every write and keeps nothing, but the bytes written while `capture` runs. */
function sink(): { socket: Duplex; capture: (write: () => Promise<void>) => Promise<Buffer> } {
  let chunks: Buffer[] | undefined;
  const keep = (chunk: Buffer | string) => chunks?.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk);
  const socket = new Duplex({
    read() {},
    write(chunk, _encoding, done) {
      keep(chunk);
      done();
    },
    writev(list, done) {
      for (const { chunk } of list) keep(chunk);
      done();
    },
  });
  return {
    socket,
    async capture(write) {
      chunks = [];
      await write();
      const bytes = Buffer.concat(chunks);
      chunks = undefined;
      return bytes;
    },
  };
}

/** One request through `listener`, settled when its response has finished. */
function send(listener: Listener, socket: Duplex, sent: Sent, body: Buffer | undefined): Promise<void> {
  return new Promise((resolve) => {
    const req = new IncomingMessage(socket as never);
    req.method = sent.method;
    req.url = sent.url;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    const raw = ['Host', '127.0.0.1', ...Object.entries(sent.headers).flat(), ...(body ? ['Content-Length', String(body.length)] : [])];
    req.rawHeaders = raw;
    const headers: Record<string, string> = {};
    for (let i = 0; i < raw.length; i += 2) headers[(raw[i] as string).toLowerCase()] = raw[i + 1] as string;
    req.headers = headers;
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    res.on('finish', () => {
      res.detachSocket(socket as never);
      resolve();
    });
    listener(req, res);
    if (body) req.push(body);
    req.push(null);
    req.complete = true;
  });
}

/** The floor: reads and parses the body (a POST's), then answers `answer`'s status line, headers and body as they are. */
function floorListener(answer: Buffer): Listener {
  const text = answer.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const headers = Object.fromEntries(
    text
      .slice(text.indexOf('\r\n') + 2, split)
      .split('\r\n')
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()])
      .filter(([name]) => !/^(date|connection|keep-alive)$/i.test(name as string)),
  ) as Record<string, string>;
  const body = answer.subarray(split + 4);
  const reply = (res: ServerResponse) => {
    res.writeHead(200, headers);
    res.end(body);
  };
  return (req, res) => {
    if (req.method !== 'POST') return reply(res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reply(res);
    });
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function cpuMicrosPerRequest(listener: Listener, socket: Duplex, sent: Sent, body: Buffer | undefined): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await send(listener, socket, sent, body);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const outDir = await baseBuild();
process.env.OUT_DIR = outDir;
process.env.SITE_URL = BENCH_SITE_URL;
const { loadServeConfig } = await import('../src/server/config.ts');
const { createAppServer } = await import('../src/server/app/app-server.ts');
const app = await createAppServer(loadServeConfig());
const appListener = app.server.listeners('request')[0] as Listener;

const lines: string[][] = [];
for (const [name, sent] of REQUESTS_MEASURED) {
  const { socket, capture } = sink();
  const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
  const answer = await capture(() => send(appListener, socket, sent, body));
  if (!answer.subarray(0, 15).toString('latin1').startsWith('HTTP/1.1 200')) throw new Error(`${name} answered ${answer.subarray(0, 200).toString()}`);
  const floor = floorListener(answer);
  const ours: number[] = [];
  const floors: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b] = [await cpuMicrosPerRequest(appListener, socket, sent, body), await cpuMicrosPerRequest(floor, socket, sent, body)];
    if (round === 0) continue;
    ours.push(a);
    floors.push(b);
  }
  const [o, f] = [median(ours), median(floors)];
  lines.push([name, `${fmt(answer.length / 1024, 1)} KiB`, fmt(o, 2), fmt(f, 2), fmt(o / f, 2), fmt(o - f, 2)]);
  console.error(`measured ${name}`);
}
console.log(`\n## CPU per request in process (${fmt(REQUESTS)} requests x ${ROUNDS - 1} rounds, medians)\n`);
console.log(markdownTable(['request', 'answer', 'server us', 'floor us', 'ratio', 'beyond the floor us'], lines));
console.log('\nFloor: reads and parses the body (a POST\'s), then writes the same status, headers and body.');
process.exit(0);
