/** A small seeded fuzz of POST /mcp: whatever arrives, the answer is a 2xx or 4xx and the server stays up. */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const JSON_TYPES = 'application/json, text/event-stream';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'), { MCP_SESSION_SECRET: 'fuzz-test-session-secret', MCP_ALLOWED_ORIGINS: 'https://agent.example.org' });
});
afterAll(() => server?.stop());

describe('fuzz: no input gets a 5xx', () => {
  // A small seeded generator, so that a failure can be replayed.
  let seed = 20_261_122;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const values = [null, true, 0, -1, 1.5, 1e308, '', 'x', 'é\u0000', [], {}, [1, 'a'], { a: { b: [] } }, '2024-02-30', 'a'.repeat(600)];
  const methods = ['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'notifications/initialized', ''];
  const tools = ['get_business', 'search_reviews', 'get_reviews_since', 'get_review', 'get_insights', 'nope'];
  const keys = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset', 'date', 'id', 'section', 'name', 'arguments', 'uri', 'cursor'];
  const object = (depth = 0): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(keys), depth < 2 && random() < 0.3 ? object(depth + 1) : pick(values)]));

  function message(): unknown {
    const method = pick(methods);
    const params = method === 'tools/call' ? { name: pick(tools), arguments: random() < 0.8 ? object() : pick(values) } : random() < 0.5 ? object() : pick(values);
    const base: Record<string, unknown> = { jsonrpc: random() < 0.9 ? '2.0' : pick(values), method, params };
    if (random() < 0.8) base.id = random() < 0.8 ? Math.floor(random() * 1000) : pick(values);
    return base;
  }

  function body(): string | Buffer {
    const kind = random();
    if (kind < 0.1) return Buffer.from(Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256)));
    if (kind < 0.2) return JSON.stringify(pick(values));
    if (kind < 0.3) return JSON.stringify(Array.from({ length: Math.floor(random() * 4) }, message));
    return JSON.stringify(message());
  }

  function headers(): Record<string, string> {
    const out: Record<string, string> = { 'Content-Type': pick(['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json;']) };
    if (random() < 0.5) out.Accept = pick(['*/*', JSON_TYPES, 'text/event-stream', 'application/json', 'text/html', 'application/json;q=0.5, */*;q=0.1', ',,;']);
    if (random() < 0.3) out['Mcp-Session-Id'] = pick(['', 'v1.1.2.3', 'x'.repeat(300), 'v1.zz.AAAAAAAAAAAAAAAA.' + 'A'.repeat(43)]);
    if (random() < 0.2) out['MCP-Protocol-Version'] = pick(['2025-06-18', '2025-11-25', 'latest', '']);
    if (random() < 0.1) out.Origin = pick(['null', 'http://127.0.0.1:1', 'https://agent.example.org', '%%%']);
    return out;
  }

  it('300 random requests all get a 2xx or 4xx, and the server stays up', async () => {
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const res = await rawRequest(`${server.url}/mcp`, { method: 'POST', headers: headers(), body: body() });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, `request ${i}`).toBeLessThan(500);
      expect(res.status, `request ${i}`).toBeGreaterThanOrEqual(200);
    }
    expect(statuses.get(200)).toBeGreaterThan(20);
    const alive = await rawRequest(`${server.url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(alive.status).toBe(200);
  });
});
