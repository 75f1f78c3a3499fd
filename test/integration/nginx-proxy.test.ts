/**
 * The built server behind nginx with deploy/nginx/reviews.conf (addresses and certificate
 * paths changed for loopback, nothing else): `nginx -t` accepts it, documents come
 * through byte for byte with their ETags and 304s, an SSE answer is not re-encoded, and
 * the hub counts the clients nginx names (TRUST_PROXY=127.0.0.1).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, type TestCertificates } from '../support/https-subscriber.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { startNginx, type RunningProxy } from '../support/tls-proxy.ts';

let dir: string;
let certs: TestCertificates;
let server: RunningServer;
let nginx: RunningProxy & { checked: string };

beforeAll(async () => {
  dir = scratchDir('nginx-proxy');
  certs = createTestCertificates(dir);
  server = await startServer(inject('smallBuild'), { HUB_DB: path.join(dir, 'hub.sqlite'), TRUST_PROXY: '127.0.0.1' });
  nginx = await startNginx(path.join(dir, 'nginx'), server.port, certs);
}, 60_000);
afterAll(async () => {
  await nginx?.stop();
  await server?.stop();
});

describe('nginx with deploy/nginx/reviews.conf', () => {
  it('passes nginx -t', () => {
    expect(nginx.checked).toMatch(/syntax is ok/);
    expect(nginx.checked).toMatch(/test is successful/);
  });

  it('passes a document through untouched: the server\'s brotli bytes, its ETag, then 304', async () => {
    const headers = { 'Accept-Encoding': 'br, gzip' };
    const [proxied, straight, identity] = await Promise.all([
      nginx.request('/reviews.json', { headers }),
      rawRequest(`${server.url}/reviews.json`, { headers }),
      rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'identity' } }),
    ]);
    expect(proxied.status).toBe(200);
    expect(proxied.headers['content-encoding']).toBe('br');
    expect(proxied.headers.etag).toBe(straight.headers.etag);
    expect(proxied.body.equals(straight.body)).toBe(true);
    expect(brotliDecompressSync(proxied.body).equals(identity.body)).toBe(true);
    const again = await nginx.request('/reviews.json', { headers: { ...headers, 'If-None-Match': String(proxied.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers MCP in SSE without re-encoding it', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'nginx-test', version: '1' } } };
    const res = await nginx.request('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'Accept-Encoding': 'gzip', Host: 'reviews.example.test' },
      body: JSON.stringify(init),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(/^data: (.+)$/m.exec(res.text)?.[1] ?? 'null')).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
  });

  it('passes an SSE event on as it is written, before the answer ends', async () => {
    // The upstream holds its answer open until the client has the first event: were nginx
    // to buffer, neither would ever move (the request's 15 s timeout fails it).
    let held: ServerResponse | undefined;
    const upstream: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store, no-transform' });
      res.write('event: message\ndata: {"id":1}\n\n');
      held = res;
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const holding = await startNginx(path.join(dir, 'nginx-stream'), (upstream.address() as { port: number }).port, certs);
    try {
      const text = await holding.stream('/mcp', (sofar) => {
        if (sofar.includes('"id":1') && held) {
          held.end('event: message\ndata: {"id":2}\n\n');
          held = undefined;
        }
      });
      expect(text).toBe('event: message\ndata: {"id":1}\n\nevent: message\ndata: {"id":2}\n\n');
    } finally {
      await holding.stop();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it('gives each client its own allowance from the hub, whatever X-Forwarded-For it forges', async () => {
    const ping = (localAddress: string, headers: Record<string, string> = {}) =>
      nginx
        .request('/api/websub/hub', {
          method: 'POST', localAddress,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': TOPICS.reviews }).toString(),
        })
        .then((res) => res.status);
    const burst = async (send: () => Promise<number>) => {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push(await send());
      return statuses;
    };
    let n = 0;
    expect(await burst(() => ping('127.0.0.2', { 'X-Forwarded-For': `198.51.100.${++n}` }))).toEqual([...Array<number>(30).fill(202), 429]);
    expect(await burst(() => ping('127.0.0.3', { Forwarded: 'for=198.51.100.1' }))).toEqual([...Array<number>(30).fill(202), 429]);
  });
});
