/**
 * A seeded fuzz of POST /mcp, both eras (issue 11): 5,000 generated requests, 2025 ones
 * and 2026-07-28 ones (envelope and headers, right or wrong). Whatever arrives, the answer
 * is a 2xx or 4xx in time, every 4xx with a body is a JSON-RPC error with a code and a
 * message, the server answers afterwards and its resident memory stays bounded.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const JSON_TYPES = 'application/json, text/event-stream';
const REQUESTS = 5000;
const ENVELOPE_KEY = 'io.modelcontextprotocol/protocolVersion';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'), { MCP_SESSION_SECRET: 'fuzz-test-session-secret', MCP_ALLOWED_ORIGINS: 'https://agent.example.org' });
});
afterAll(() => server?.stop());

/** The server's resident memory in bytes, from /proc. */
function residentBytes(): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

describe('fuzz: no input gets a 5xx', () => {
  // A small seeded generator, so that a failure can be replayed.
  let seed = 20_261_125;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const deep = (depth: number): unknown => (depth === 0 ? 'x' : [deep(depth - 1)]);
  const values = [null, true, 0, -1, 1.5, 1e308, '', 'x', 'é\u0000', [], {}, [1, 'a'], { a: { b: [] } }, '2024-02-30', 'a'.repeat(600), 'id,rating', 'colour', deep(50)];
  const methods = [
    'initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get',
    'completion/complete', 'server/discover', 'subscriptions/listen', 'notifications/initialized', 'logging/setLevel', '',
  ];
  const tools = ['get_business', 'search_reviews', 'get_reviews_since', 'get_review', 'get_insights', 'nope'];
  const keys = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset', 'fields', 'date', 'id', 'section', 'name', 'arguments', 'uri', 'cursor', 'ref', 'argument'];
  const versions = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', 'latest', '', '2099-01-01'];
  const object = (depth = 0): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(keys), depth < 2 && random() < 0.3 ? object(depth + 1) : pick(values)]));

  function message(modern: boolean): { body: Record<string, unknown>; method: string; name?: string } {
    const method = pick(methods);
    const name = method === 'tools/call' ? pick(tools) : undefined;
    let params: unknown = method === 'tools/call' ? { name, arguments: random() < 0.8 ? object() : pick(values) } : random() < 0.5 ? object() : pick(values);
    if (modern && random() < 0.85 && typeof params === 'object' && params !== null && !Array.isArray(params)) {
      params = { ...params, _meta: { [ENVELOPE_KEY]: random() < 0.9 ? '2026-07-28' : pick(versions), 'io.modelcontextprotocol/clientCapabilities': random() < 0.9 ? {} : pick(values) } };
    }
    const body: Record<string, unknown> = { jsonrpc: random() < 0.95 ? '2.0' : pick(values), method, params };
    if (random() < 0.85) body.id = random() < 0.8 ? Math.floor(random() * 1000) : pick(values);
    return { body, method, ...(name ? { name } : {}) };
  }

  function request(): { body: string | Buffer; headers: Record<string, string> } {
    const modern = random() < 0.5;
    // Mostly well-formed transport headers, so that most requests reach the MCP layer.
    const headers: Record<string, string> = { 'Content-Type': random() < 0.9 ? pick(['application/json', 'application/json; charset=utf-8']) : pick(['text/plain', 'application/json;']) };
    if (random() < 0.6) headers.Accept = random() < 0.9 ? pick(['*/*', JSON_TYPES, 'text/event-stream', 'application/json']) : pick(['text/html', 'application/json;q=0.5, */*;q=0.1', ',,;']);
    if (random() < 0.1) headers['Mcp-Session-Id'] = pick(['', 'v1.1.2.3', 'x'.repeat(300), 'v2.zz.2025-03-26.AAAAAAAAAAAAAAAA.' + 'A'.repeat(43)]);
    if (random() < 0.1) headers.Origin = pick(['null', 'http://127.0.0.1:1', 'https://agent.example.org', '%%%']);
    const kind = random();
    if (kind < 0.08) return { headers, body: Buffer.from(Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256))) };
    if (kind < 0.14) return { headers, body: JSON.stringify(pick(values)) };
    if (kind < 0.22) return { headers, body: JSON.stringify(Array.from({ length: Math.floor(random() * 13) }, () => message(modern).body)) };
    const { body, method, name } = message(modern);
    if (modern) {
      if (random() < 0.9) headers['MCP-Protocol-Version'] = random() < 0.85 ? '2026-07-28' : pick(versions);
      if (random() < 0.85) headers['Mcp-Method'] = random() < 0.9 ? method : pick(methods);
      if (name !== undefined && random() < 0.85) headers['Mcp-Name'] = random() < 0.9 ? name : pick(tools);
    } else if (random() < 0.3) {
      headers['MCP-Protocol-Version'] = pick(versions);
    }
    return { headers, body: JSON.stringify(body) };
  }

  it(`${REQUESTS} generated requests of both eras all get a 2xx or 4xx, JSON-RPC errors have their shape, memory stays bounded`, async () => {
    const before = residentBytes();
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      const { headers, body } = request();
      const res = await rawRequest(`${server.url}/mcp`, { method: 'POST', headers, body });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, `request ${i}`).toBeLessThan(500);
      expect(res.status, `request ${i}`).toBeGreaterThanOrEqual(200);
      if (res.status >= 400 && res.text !== '') {
        const error = (JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } }).error;
        expect(Number.isInteger(error?.code), `request ${i}: ${res.text}`).toBe(true);
        expect(typeof error?.message, `request ${i}`).toBe('string');
      }
    }
    expect(statuses.get(200)).toBeGreaterThan(REQUESTS / 20);
    expect(statuses.get(400)).toBeGreaterThan(REQUESTS / 20);
    console.log(`MCP fuzz: ${REQUESTS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}, resident memory ${Math.round(before / 2 ** 20)} → ${Math.round(residentBytes() / 2 ** 20)} MiB`);
    const alive = await rawRequest(`${server.url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(alive.status).toBe(200);
    // Generous: the heap grows and settles; what must not happen is growth with the number of requests.
    expect(residentBytes() - before).toBeLessThan(150 * 1024 * 1024);
  });
});
