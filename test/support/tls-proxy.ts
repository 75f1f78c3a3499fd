/**
 * Debian's Caddy and nginx in front of a server, with the repository's configuration
 * (deploy/) as an operator installs it: TLS (Caddy's internal CA, never installed in the
 * system's trust store, or the test CA for nginx), loopback only, free high ports, and a
 * client that trusts that CA and can connect from any 127.0.0.x address.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { connect } from 'node:tls';
import path from 'node:path';
import { PROJECT_ROOT } from './build.ts';
import { sendAndRead, type RawResponse } from './http.ts';

export const SITE_HOST = 'reviews.example.test';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningProxy {
  port: number;
  /** Caddy's internal root certificate (PEM), the only CA the client trusts. */
  ca: Buffer;
  output(): string;
  request(target: string, options?: ProxyRequest): Promise<RawResponse>;
  /** A POST whose answer is read as it arrives: `onText` sees the text so far after each chunk; resolves with all of it. */
  stream(target: string, onText: (sofar: string) => void): Promise<string>;
  stop(): Promise<void>;
}

export interface ProxyRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  localAddress?: string;
}

/** Caddy's own environment: its data (CA, certificates) and config under `dir`, never root's home. */
export function caddyEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config'), ...extra };
}

export function requireCaddy(): void {
  if (spawnSync('caddy', ['version']).status !== 0) throw new Error('caddy is not installed: apt-get install caddy (.ci/run does)');
}

/** Starts Caddy with deploy/reviews.caddy in front of `upstream` (host:port). */
export async function startCaddy(dir: string, upstream: string): Promise<RunningProxy> {
  requireCaddy();
  mkdirSync(dir, { recursive: true });
  const [port, httpPort] = [await freePort(), await freePort()];
  const config = path.join(dir, 'Caddyfile');
  // Test-only global options; the site block is the repository's file, unchanged.
  writeFileSync(
    config,
    `{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\tdefault_bind 127.0.0.1\n\thttp_port ${httpPort}\n\thttps_port ${port}\n` +
      `\tauto_https disable_redirects\n\tstorage file_system ${path.join(dir, 'storage')}\n}\nimport ${path.join(PROJECT_ROOT, 'deploy/reviews.caddy')}\n`,
  );
  const child: ChildProcess = spawn('caddy', ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: caddyEnv(dir, { SITE_ADDRESS: `${SITE_HOST}:${port}`, REVIEWS_UPSTREAM: upstream }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const rootFile = path.join(dir, 'storage/pki/authorities/local/root.crt');
  const deadline = Date.now() + 20_000;
  let ca: Buffer | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited with ${child.exitCode}:\n${output}`);
    if (existsSync(rootFile)) {
      ca = readFileSync(rootFile);
      if (await servesTls(port, ca)) break;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`caddy did not serve TLS in 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const caFile = ca;
  return {
    port,
    ca: caFile,
    output: () => output,
    request: (target, options = {}) => proxyRequest(port, caFile, target, options),
    stream: (target, onText) => streamRequest(port, caFile, target, onText),
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Whether a TLS handshake for the site's name succeeds with that CA: Caddy has its certificate. */
function servesTls(port: number, ca: Buffer, servername = SITE_HOST): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername, ca }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** One HTTPS request to the proxy, for the site's name, with exactly the headers given. */
export function proxyRequest(port: number, ca: Buffer, target: string, options: ProxyRequest, servername = SITE_HOST): Promise<RawResponse> {
  const req = request({
    host: '127.0.0.1', port, path: target, method: options.method ?? 'GET', servername, ca, timeout: 15_000,
    localAddress: options.localAddress, agent: false,
    headers: { Host: `${SITE_HOST}:${port}`, ...options.headers },
  });
  return sendAndRead(req, target, options.body);
}

function streamRequest(port: number, ca: Buffer, target: string, onText: (sofar: string) => void, servername = SITE_HOST): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1', port, path: target, method: 'POST', servername, ca, agent: false, timeout: 15_000,
        headers: { Host: SITE_HOST, Accept: 'text/event-stream', 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          onText(text);
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer through the proxy in 15 s: ${target} is buffered`)));
    req.on('error', reject);
    req.end('{}');
  });
}

/** Replaces `from` by `to` in the configuration, failing when `from` is not there (the file changed). */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`deploy/nginx/reviews.conf no longer contains ${JSON.stringify(from)}: update the test`);
  return text.split(from).join(to);
}

/**
 * deploy/nginx/reviews.conf with only its addresses and certificate paths changed (loopback, free
 * ports, the test CA's certificate for localhost), inside a main configuration of its own;
 * `nginx -t` checks it, then nginx runs it in the foreground as one process.
 */
export async function startNginx(dir: string, upstreamPort: number, certs: { dir: string; caFile: string }): Promise<RunningProxy & { checked: string }> {
  if (spawnSync('nginx', ['-v']).status !== 0) throw new Error('nginx is not installed: apt-get install nginx (.ci/run does)');
  mkdirSync(dir, { recursive: true });
  const [port, httpPort] = [await freePort(), await freePort()];
  let site = readFileSync(path.join(PROJECT_ROOT, 'deploy/nginx/reviews.conf'), 'utf8');
  site = replaced(site, 'server 127.0.0.1:4321;', `server 127.0.0.1:${upstreamPort};`);
  site = replaced(site, '\tlisten 80;\n\tlisten [::]:80;', `\tlisten 127.0.0.1:${httpPort};`);
  site = replaced(site, '\tlisten 443 ssl http2;\n\tlisten [::]:443 ssl http2;', `\tlisten 127.0.0.1:${port} ssl http2;`);
  site = replaced(site, '/etc/letsencrypt/live/reviews.example.com/fullchain.pem', path.join(certs.dir, 'server.crt'));
  site = replaced(site, '/etc/letsencrypt/live/reviews.example.com/privkey.pem', path.join(certs.dir, 'server.key'));
  writeFileSync(path.join(dir, 'reviews.conf'), site);
  const temp = (name: string) => `${name} ${path.join(dir, name.replace(/_path$/, ''))};`;
  const main = path.join(dir, 'nginx.conf');
  writeFileSync(
    main,
    `daemon off;\nmaster_process off;\npid ${path.join(dir, 'nginx.pid')};\nerror_log ${path.join(dir, 'error.log')};\nevents {}\n` +
      `http {\n\tinclude /etc/nginx/mime.types;\n\taccess_log off;\n\t${temp('client_body_temp_path')}\n\t${temp('proxy_temp_path')}\n` +
      `\t${temp('fastcgi_temp_path')}\n\t${temp('uwsgi_temp_path')}\n\t${temp('scgi_temp_path')}\n\tinclude ${path.join(dir, 'reviews.conf')};\n}\n`,
  );
  const args = ['-c', main, '-e', path.join(dir, 'error.log'), '-p', dir];
  const check = spawnSync('nginx', ['-t', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const child = spawn('nginx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ca = readFileSync(certs.caFile);
  const deadline = Date.now() + 20_000;
  while (!(await servesTls(port, ca, 'localhost'))) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not serve TLS in 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port, ca, checked: check.stderr,
    output: () => output,
    request: (target, options = {}) => proxyRequest(port, ca, target, options, 'localhost'),
    stream: (target, onText) => streamRequest(port, ca, target, onText, 'localhost'),
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGQUIT');
      }),
  };
}
