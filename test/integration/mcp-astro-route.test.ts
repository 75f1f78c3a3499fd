/**
 * The embedded server answers /mcp itself (node-adapter.ts); the Astro route
 * src/pages/mcp.ts serves hosts that run Astro's own handler. Both must answer
 * the same: here Astro's built handler serves on its own port, next to the real
 * server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

let server: RunningServer;
let astro: Server;
let astroUrl: string;

beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  // Read by the bundle's configuration on first use, as the server's own process would.
  process.env.MCP_SESSION_SECRET = 'astro-route-test-session-secret';
  const entry = pathToFileURL(path.join(inject('smallBuild'), 'server/entry.mjs')).href;
  const { handler } = (await import(entry)) as { handler: NodeHandler };
  astro = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => astro.listen(0, '127.0.0.1', resolve));
  const address = astro.address();
  astroUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => astro?.close(resolve));
  await server?.stop();
});

const post = (base: string, message: unknown, headers: Record<string, string> = {}) =>
  rawRequest(`${base}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(message) });

describe('the Astro route and the embedded server answer alike', () => {
  it('initialize: a session id and the same result', async () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const [direct, routed] = await Promise.all([post(server.url, message), post(astroUrl, message)]);
    expect(routed.status).toBe(200);
    expect(routed.headers['mcp-session-id']).toMatch(/^v2\./);
    expect(JSON.parse(routed.text)).toEqual(JSON.parse(direct.text));
  });

  it('tools/call: the same bytes', async () => {
    const message = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: { query: 'zoe' } } };
    const [direct, routed] = await Promise.all([post(server.url, message), post(astroUrl, message)]);
    expect(routed.status).toBe(200);
    expect(routed.text).toBe(direct.text);
  });

  it('the transport rules: 405 with Allow, 403 for a foreign origin, 400 for junk', async () => {
    const get = await rawRequest(`${astroUrl}/mcp`);
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    const foreign = await post(astroUrl, { jsonrpc: '2.0', id: 3, method: 'ping' }, { Origin: 'https://evil.example.com' });
    expect(foreign.status).toBe(403);
    const junk = await rawRequest(`${astroUrl}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect([junk.status, JSON.parse(junk.text).error.code]).toEqual([400, -32700]);
  });
});
