/**
 * The built server behind Caddy with the repository's site block (deploy/reviews.caddy),
 * over TLS from Caddy's internal CA, as clients see it: every answer checked against
 * the one the server gives directly (same bytes, same ETag, nothing re-encoded), MCP in
 * both protocol eras, WebSub to an HTTPS subscriber, and the hub's per-client limit
 * counting the clients Caddy names (TRUST_PROXY=127.0.0.1).
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { caddyEnv, SITE_HOST, startCaddy, type ProxyRequest, type RunningProxy } from '../support/tls-proxy.ts';
import { rawRequest } from '../support/http.ts';
import { TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber } from '../support/https-subscriber.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let dir: string;
let server: RunningServer;
let caddy: RunningProxy;
let subscriber: Subscriber;

beforeAll(async () => {
  dir = scratchDir('tls-proxy');
  const certs = createTestCertificates(dir);
  subscriber = await startSubscriber(certs);
  server = await startServer(inject('smallBuild'), {
    HUB_DB: path.join(dir, 'hub.sqlite'), TRUST_PROXY: '127.0.0.1', NODE_EXTRA_CA_CERTS: certs.caFile, HUB_ALLOW_PRIVATE_CALLBACKS: '1',
  });
  caddy = await startCaddy(path.join(dir, 'caddy'), `127.0.0.1:${server.port}`);
}, 60_000);
afterAll(async () => {
  await caddy?.stop();
  await server?.stop();
  await subscriber?.close();
});

/** The same request straight to the server, with the Host the proxy passes on. */
const direct = (target: string, options: ProxyRequest = {}) =>
  rawRequest(`${server.url}${target}`, { ...options, headers: { Host: `${SITE_HOST}:${caddy.port}`, ...options.headers } });
const viaProxy = (target: string, options: ProxyRequest = {}) => caddy.request(target, options);

describe('deploy/Caddyfile', () => {
  it('is a valid configuration for a public name (Let\'s Encrypt), as installed in /etc/caddy', () => {
    const result = spawnSync('caddy', ['validate', '--config', path.join(import.meta.dirname, '../../deploy/Caddyfile'), '--adapter', 'caddyfile'], {
      env: caddyEnv(path.join(dir, 'caddy-validate'), { SITE_ADDRESS: 'reviews.example.com' }),
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toMatch(/Valid configuration/);
    expect(result.status).toBe(0);
  });
});

describe('documents through the proxy', () => {
  it.each([
    ['/reviews.json', 'br', brotliDecompressSync],
    ['/feed.xml', 'gzip', gunzipSync],
    ['/api/feed.json', 'br', brotliDecompressSync],
  ] as const)('%s in %s: the server\'s bytes and ETag, decoded to the identity bytes, then 304', async (target, coding, decode) => {
    const headers = { 'Accept-Encoding': coding };
    const [proxied, straight, identity] = await Promise.all([viaProxy(target, { headers }), direct(target, { headers }), direct(target, { headers: { 'Accept-Encoding': 'identity' } })]);
    expect(proxied.status).toBe(200);
    expect(proxied.headers['content-encoding']).toBe(coding);
    expect(proxied.headers.etag).toBe(straight.headers.etag);
    expect(proxied.headers['content-type']).toBe(straight.headers['content-type']);
    expect(proxied.body.equals(straight.body)).toBe(true);
    expect(decode(proxied.body).equals(identity.body)).toBe(true);
    const again = await viaProxy(target, { headers: { ...headers, 'If-None-Match': String(proxied.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(proxied.headers.etag);
  });

  it('sends identity to a client that asks for no coding', async () => {
    const [proxied, straight] = await Promise.all([viaProxy('/reviews.json', { headers: { 'Accept-Encoding': 'identity' } }), direct('/reviews.json', { headers: { 'Accept-Encoding': 'identity' } })]);
    expect(proxied.headers['content-encoding']).toBeUndefined();
    expect(proxied.body.equals(straight.body)).toBe(true);
  });

  it('answers search and the review browser as the server does', async () => {
    for (const target of ['/api/reviews/search?rating=5', '/api/reviews/search?query=roof&limit=2', '/reviews', '/reviews?rating=4']) {
      const headers = { 'Accept-Encoding': 'gzip' };
      const [proxied, straight] = await Promise.all([viaProxy(target, { headers }), direct(target, { headers })]);
      expect(proxied.status, target).toBe(200);
      expect(proxied.headers['content-type']).toBe(straight.headers['content-type']);
      expect(proxied.headers['content-encoding']).toBe(straight.headers['content-encoding']);
      const decoded = (res: typeof proxied) => (res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body).toString();
      expect(decoded(proxied)).toBe(decoded(straight));
    }
    const search = JSON.parse((await viaProxy('/api/reviews/search?rating=5')).text) as { reviews: { rating: number }[] };
    expect(search.reviews.length).toBeGreaterThan(0);
    expect(search.reviews.every((review) => review.rating === 5)).toBe(true);
  });
});

describe('MCP through the proxy', () => {
  const mcp = (body: unknown, headers: Record<string, string>) =>
    viaProxy('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('2025-06-18: initialize answered as an SSE event, then a call in the session', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'proxy-test', version: '1' } } };
    const res = await mcp(init, { Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['content-encoding']).toBeUndefined();
    const event = JSON.parse(/^data: (.+)$/m.exec(res.text)?.[1] ?? 'null') as { result: { protocolVersion: string } };
    expect(event.result.protocolVersion).toBe('2025-06-18');
    const session = String(res.headers['mcp-session-id']);
    const call = await mcp(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_review', arguments: { id: 'a-one' } } },
      { Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' },
    );
    expect(call.status).toBe(200);
    expect(JSON.parse(call.text)).toMatchObject({ id: 2, result: { content: [{ type: 'text' }] } });
  });

  it('2026-07-28: a stateless call with its envelope', async () => {
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const body = { jsonrpc: '2.0', id: 'm-1', method: 'tools/call', params: { name: 'get_business', _meta: envelope } };
    const headers = { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_business' };
    const [proxied, straight] = await Promise.all([mcp(body, headers), direct('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) })]);
    expect(proxied.status).toBe(200);
    expect(proxied.text).toBe(straight.text);
    expect(JSON.parse(proxied.text)).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('passes an SSE event on as it is written, before the answer ends', async () => {
    // An upstream that holds its answer open until the client has the first event: were
    // the proxy to buffer, neither would ever move (the request's 15 s timeout fails it).
    let held: ServerResponse | undefined;
    const upstream: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store, no-transform' });
      res.write('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
      held = res;
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const holding = await startCaddy(path.join(dir, 'caddy-stream'), `127.0.0.1:${(upstream.address() as { port: number }).port}`);
    try {
      const text = await holding.stream('/mcp', (sofar) => {
        if (sofar.includes('"id":1') && held) {
          held.end('event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{}}\n\n');
          held = undefined;
        }
      });
      expect(text).toBe('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":2,"result":{}}\n\n');
    } finally {
      await holding.stop();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});

const hubForm = (fields: Record<string, string>, localAddress?: string, headers: Record<string, string> = {}) =>
  viaProxy('/api/websub/hub', {
    method: 'POST', localAddress,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe('WebSub through the proxy', () => {
  it('subscribes an HTTPS callback and delivers the topic to it', async () => {
    const callback = subscriber.callback('through-caddy');
    const res = await hubForm({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': TOPICS.jsonFeed });
    expect(res.status).toBe(202);
    await subscriber.waitFor('the verification', () => subscriber.verifications('through-caddy').length === 1);
    // The subscription is active once the verification was answered; a publish then delivers the topic.
    await subscriber.waitFor('the delivery', async () => {
      expect((await hubForm({ 'hub.mode': 'publish', 'hub.url': TOPICS.jsonFeed }, '127.0.0.9')).status).toBe(202);
      return subscriber.acknowledged('through-caddy').length === 1;
    });
    const [delivery] = subscriber.acknowledged('through-caddy');
    const topic = await direct('/api/feed.json', { headers: { 'Accept-Encoding': 'identity' } });
    expect(delivery?.body.equals(topic.body)).toBe(true);
    expect(delivery?.headers['content-type']).toBe('application/json');
  });
});

describe("the hub's per-client limit through the proxy", () => {
  const ping = (localAddress: string, headers: Record<string, string> = {}) =>
    hubForm({ 'hub.mode': 'publish', 'hub.url': TOPICS.reviews }, localAddress, headers).then((res) => res.status);
  const burst = async (send: () => Promise<number>) => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push(await send());
    return statuses;
  };

  it('counts each client that connects to Caddy, whatever X-Forwarded-For it forges', async () => {
    let n = 0;
    // 127.0.0.2 forges a new address every time: Caddy replaces it, so the limit still applies.
    expect(await burst(() => ping('127.0.0.2', { 'X-Forwarded-For': `198.51.100.${++n}`, Forwarded: `for=198.51.100.${n}` }))).toEqual([...Array<number>(30).fill(202), 429]);
    // 127.0.0.3 has its own allowance.
    expect(await burst(() => ping('127.0.0.3'))).toEqual([...Array<number>(30).fill(202), 429]);
    expect(await ping('127.0.0.4')).toBe(202);
  });
});
