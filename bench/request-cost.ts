/**
 * `npm run bench -- request-cost`: the CPU time one request costs the server's own
 * code, without the network: the app's request listener, on a real build, is handed
 * real `IncomingMessage`/`ServerResponse` objects over a socket that keeps nothing,
 * request after request, in rounds alternated with a floor handler that reads and
 * parses the body and answers the same bytes (bench/support/bare-answer.ts: the paths
 * bench's floor server, in process). The requests are those of the paths bench (its
 * search and MCP rows, the 2025-06-18 ones with a session).
 *
 * Under load over loopback on this 2-core machine, a request costs the server about
 * four times what it costs here (the kernel's part, Node's parser, cold caches), and
 * those figures move by 10-20% between runs; these move by a few per cent, so a change
 * on a request path shows here first. BENCH_REQUESTS requests per round (default
 * 20,000), BENCH_ROUNDS rounds (default 7; the first is a warm-up and not counted).
 */
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';
import { bareListener } from './support/bare-answer.ts';
import { INITIALIZE, paths, type Request } from './support/request-paths.ts';
import { baseBuild, BENCH_SITE_URL } from './support/site.ts';
import { fmt, markdownTable } from './support/table.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Math.max(2, Number(process.env.BENCH_ROUNDS ?? 7));
/** The rows of the paths bench measured here: the small answers the server, not the load generator, limits. */
const MEASURED = (name: string) => name === 'search, default' || name.startsWith('MCP ');

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
function send(listener: RequestListener, socket: Duplex, request: Request, body: Buffer | undefined): Promise<void> {
  return new Promise((resolve) => {
    const req = new IncomingMessage(socket as never);
    req.method = request.method ?? 'GET';
    req.url = request.path;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    const raw = ['Host', '127.0.0.1', ...Object.entries(request.headers ?? {}).flat(), ...(body ? ['Content-Length', String(body.length)] : [])];
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

/** An answer as written: its status line, its headers (without those of the connection) and its body. */
function parseAnswer(answer: Buffer): { status: string; headers: Record<string, string>; body: Buffer } {
  const text = answer.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const [status = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    if (!/^(date|connection|keep-alive|content-length)$/i.test(name)) headers[name] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: answer.subarray(split + 4) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function cpuMicrosPerRequest(listener: RequestListener, socket: Duplex, request: Request, body: Buffer | undefined): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await send(listener, socket, request, body);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const bodyOf = (request: Request) => (request.body === undefined ? undefined : Buffer.from(request.body));

const outDir = await baseBuild();
process.env.OUT_DIR = outDir;
process.env.SITE_URL = BENCH_SITE_URL;
const { loadServeConfig } = await import('../src/server/config.ts');
const { createAppServer } = await import('../src/server/app/app-server.ts');
const app = await createAppServer(loadServeConfig());
const appListener = app.server.listeners('request')[0] as RequestListener;

const { socket, capture } = sink();
const session = parseAnswer(await capture(() => send(appListener, socket, INITIALIZE, bodyOf(INITIALIZE)))).headers['Mcp-Session-Id'];
if (!session) throw new Error('initialize answered without a session id');

const lines: string[][] = [];
for (const [name, request] of paths(session).filter(([name]) => MEASURED(name))) {
  const body = bodyOf(request);
  const answer = await capture(() => send(appListener, socket, request, body));
  const { status, headers, body: answerBody } = parseAnswer(answer);
  if (!status.startsWith('HTTP/1.1 200') || (request.path === '/mcp' && !answerBody.includes('"result"'))) {
    throw new Error(`${name} answered ${answer.subarray(0, 300).toString()}`);
  }
  // A GET has no body to read: its floor is the bare answer.
  const floor = bareListener(answerBody, headers, { floor: request.method === 'POST' });
  const floorAnswer = parseAnswer(await capture(() => send(floor, socket, request, body)));
  if (!floorAnswer.status.startsWith('HTTP/1.1 200') || !floorAnswer.body.equals(answerBody)) throw new Error(`the floor of ${name} answered ${floorAnswer.status}`);
  const ours: number[] = [];
  const floors: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b] = [await cpuMicrosPerRequest(appListener, socket, request, body), await cpuMicrosPerRequest(floor, socket, request, body)];
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
console.log("\nFloor: reads and parses the body (a POST's), then writes the same status, headers and body (bench/support/bare-answer.ts).");
process.exit(0);
