/**
 * A real WebSub subscriber over HTTPS for tests: a throwaway CA and server
 * certificate made with the openssl CLI (the hub's child process trusts the CA
 * through NODE_EXTRA_CA_CERTS), and a server whose callbacks answer verification
 * GETs and notification POSTs the way each test scripts them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { Socket } from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from './build.ts';

export interface TestCertificates {
  dir: string;
  caFile: string;
  key: Buffer;
  cert: Buffer;
}

/** A fresh folder under tmp/ for one test file's hub database, certificates or state (emptied on each run). */
export function scratchDir(name: string): string {
  const dir = path.join(PROJECT_ROOT, 'tmp/websub-tests', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function createTestCertificates(dir: string): TestCertificates {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Reviews hub test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2',
    '-extfile', 'server.ext');
  return { dir, caFile: path.join(dir, 'ca.crt'), key: readFileSync(path.join(dir, 'server.key')), cert: readFileSync(path.join(dir, 'server.crt')) };
}

/** How a callback answers: a status, never ("hang"), a redirect elsewhere, or a status after a pause. */
export type Answer = number | 'hang' | { redirect: string } | { status: number; delayMs: number };

export interface CallbackScript {
  /** Verification GETs: echo the challenge (default), answer something else, or a status. */
  verify?: 'echo' | 'wrong' | Answer;
  /** Notification POSTs in order; the last one repeats. Default: 200. */
  deliver?: Answer[];
}

export interface Received {
  method: string;
  name: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  answered: number | 'hang';
}

export interface Subscriber {
  /** A callback URL (with a query string of its own) answering as scripted (a script given earlier stays). */
  callback(name: string, script?: CallbackScript, host?: string): string;
  script(name: string, script: CallbackScript): void;
  received(name: string): Received[];
  posts(name: string): Received[];
  /** Notifications answered 2xx. */
  acknowledged(name: string): Received[];
  /** How many notifications to `name` were answered 2xx, kept as they come (cheap to poll for 1,000 names). */
  acknowledgedCount(name: string): number;
  /** How many denial GETs `name` received, kept as they come. */
  denialCount(name: string): number;
  verifications(name: string): Received[];
  denials(name: string): Received[];
  waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function statusOf(answer: Answer | 'echo' | 'wrong'): number | 'hang' {
  if (typeof answer === 'number' || answer === 'hang') return answer;
  if (typeof answer === 'string') return 200;
  return 'status' in answer ? answer.status : 302;
}

export async function startSubscriber(certs: TestCertificates): Promise<Subscriber> {
  const scripts = new Map<string, CallbackScript>();
  const log: Received[] = [];
  const acknowledgedCounts = new Map<string, number>();
  const denialCounts = new Map<string, number>();
  const sockets = new Set<Socket>();

  const server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const name = url.pathname.slice(1);
      const script = scripts.get(name) ?? {};
      const isPost = req.method === 'POST';
      const mode = url.searchParams.get('hub.mode');
      let answer: Answer | 'echo' | 'wrong';
      if (isPost) {
        const plan = script.deliver ?? [200];
        answer = plan[Math.min(log.filter((r) => r.name === name && r.method === 'POST').length, plan.length - 1)] ?? 200;
      } else {
        answer = mode === 'denied' ? 200 : (script.verify ?? 'echo');
      }
      const entry: Received = {
        method: req.method ?? '', name, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks),
        answered: statusOf(answer),
      };
      log.push(entry);
      if (isPost && typeof entry.answered === 'number' && entry.answered < 300) acknowledgedCounts.set(name, (acknowledgedCounts.get(name) ?? 0) + 1);
      if (!isPost && mode === 'denied') denialCounts.set(name, (denialCounts.get(name) ?? 0) + 1);
      if (answer === 'hang') return;
      if (answer === 'echo') return res.writeHead(200, { 'Content-Type': 'text/plain' }).end(url.searchParams.get('hub.challenge') ?? '');
      if (answer === 'wrong') return res.writeHead(200, { 'Content-Type': 'text/plain' }).end('not the challenge');
      if (typeof answer === 'object' && 'status' in answer) return void setTimeout(() => res.writeHead(answer.status).end(), answer.delayMs);
      if (typeof answer === 'object') return res.writeHead(302, { Location: answer.redirect }).end();
      res.writeHead(answer).end();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const of = (name: string) => log.filter((r) => r.name === name);
  return {
    callback(name, script, host = 'localhost') {
      if (script || !scripts.has(name)) scripts.set(name, script ?? {});
      return `https://${host}:${port}/${name}?subscriber=${name}`;
    },
    script: (name, script) => scripts.set(name, script),
    received: of,
    posts: (name) => of(name).filter((r) => r.method === 'POST'),
    acknowledged: (name) => of(name).filter((r) => r.method === 'POST' && typeof r.answered === 'number' && r.answered < 300),
    acknowledgedCount: (name) => acknowledgedCounts.get(name) ?? 0,
    denialCount: (name) => denialCounts.get(name) ?? 0,
    verifications: (name) => of(name).filter((r) => r.method === 'GET' && r.query.get('hub.mode') !== 'denied'),
    denials: (name) => of(name).filter((r) => r.method === 'GET' && r.query.get('hub.mode') === 'denied'),
    async waitFor(what, condition, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
