/**
 * Abusive and broken clients of POST /mcp over real HTTP (issue 11): batches,
 * the answer budget, deeply nested arguments, error messages that repeat their
 * code, id echo, aborted uploads and the SSE connection header.
 */
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_SITE_URL } from '../support/build.ts';
import { rawRequest, type RawResponse } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const JSON_TYPES = 'application/json, text/event-stream';
/** Above one resource of the small build (reviews.json is a few KiB) and below two. */
const ANSWER_MAX_BYTES = 6 * 1024;
/** A result budget that holds two or three reviews of the small build, and its reviews.json as a resource. */
const RESULT_MAX_TOKENS = 3000;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'), { MCP_SESSION_SECRET: 'hostile-test-session-secret', MCP_ANSWER_MAX_BYTES: String(ANSWER_MAX_BYTES), MCP_RESULT_MAX_TOKENS: String(RESULT_MAX_TOKENS) });
});
afterAll(() => server?.stop());

function post(body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: JSON_TYPES, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
const json = (res: RawResponse) => JSON.parse(res.text) as Message & Message[];
const sseMessage = (res: RawResponse) => JSON.parse(/^data: (.+)$/m.exec(res.text)?.[1] ?? 'null') as Message;

async function sessionOf(protocolVersion: string): Promise<string> {
  const res = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } });
  expect(json(res).result?.protocolVersion).toBe(protocolVersion);
  return String(res.headers['mcp-session-id']);
}

const reviewsUri = `${TEST_SITE_URL}/reviews.json`;
const read = (id: number, uri = reviewsUri) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });
const batchOf = (length: number) => Array.from({ length }, (_, i) => read(i + 1));

describe('batches', () => {
  it('are refused without a session of a version before 2025-06-18, with a JSON-RPC error', async () => {
    const session = await sessionOf('2025-06-18');
    const headerSets: Record<string, string>[] = [{}, { 'Mcp-Session-Id': session }, { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' }, { 'MCP-Protocol-Version': '2025-11-25' }];
    for (const headers of headerSets) {
      const res = await post(batchOf(2), headers);
      expect(res.status).toBe(400);
      expect(json(res).error).toMatchObject({ code: -32600, message: expect.stringContaining('batches are not part of MCP since protocol version 2025-06-18') });
    }
  });

  it('are served to a 2025-03-26 session (which sends no version header), ten at most', async () => {
    const session = await sessionOf('2025-03-26');
    const pings = Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    const ok = await post(pings, { 'Mcp-Session-Id': session });
    expect(ok.status).toBe(200);
    expect(json(ok).map((message) => message.id)).toEqual(pings.map((ping) => ping.id));
    const tooMany = await post([...pings, { jsonrpc: '2.0', id: 10, method: 'ping' }], { 'Mcp-Session-Id': session });
    expect(tooMany.status).toBe(400);
    expect(json(tooMany).error?.message).toContain('1 to 10 messages, not 11');
  });

  it('share one answer budget: reads past it get an error that says what to use instead', async () => {
    const session = await sessionOf('2025-03-26');
    const res = await post(batchOf(3), { 'Mcp-Session-Id': session });
    expect(res.status).toBe(200);
    const [first, second, third] = json(res);
    expect(first?.result?.contents).toHaveLength(1);
    for (const refused of [second, third]) {
      expect(refused?.error?.code).toBe(-32010);
      expect(refused?.error?.message).toMatch(/^Answer too large: .*reviews\.json is .* MiB.*Fetch it over HTTP at that URL/);
    }
    // Each request has its own budget.
    expect(json(await post(read(9))).result?.contents).toHaveLength(1);
  });
});

describe('deeply nested arguments', () => {
  // Written as text: the value is too deep for JSON.stringify.
  const deep = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
  const cases: [string, string[]][] = [
    ['get_review', ['id']],
    ['search_reviews', ['query', 'rating']],
    ['get_reviews_since', ['date']],
    ['get_insights', ['section']],
  ];

  it.each(cases)('%s gives a tool error on both paths, never a 5xx', async (name, keys) => {
    const args = `{${keys.map((key) => `"${key}":${deep}`).join(',')}}`;
    const message = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
    for (const accept of [JSON_TYPES, 'text/event-stream']) {
      const res = await post(message, { Accept: accept });
      expect(res.status, accept).toBe(200);
      const answer = accept === JSON_TYPES ? json(res) : sseMessage(res);
      expect(answer.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('nested more than 8 levels deep') }] });
    }
  });
});

describe('error messages', () => {
  it('an SDK client shows the code once (-32602 for an unknown tool and an unknown resource)', async () => {
    const client = new Client({ name: 'hostile', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const unknownTool = await client.callTool({ name: 'nope', arguments: {} }).catch((error: Error) => error);
      expect((unknownTool as Error).message).toMatch(/^MCP error -32602: Unknown tool: "nope"/);
      const unknownResource = await client.readResource({ uri: 'reviews://review/nope' }).catch((error: Error) => error);
      expect((unknownResource as Error).message).toMatch(/^MCP error -32602: Resource not found/);
      const badParams = await client.request({ method: 'resources/read', params: {} } as never, (await import('@modelcontextprotocol/sdk/types.js')).ReadResourceResultSchema).catch((error: Error) => error);
      expect((badParams as Error).message).toMatch(/^MCP error -32602: Invalid params/);
      for (const error of [unknownTool, unknownResource, badParams]) expect((error as Error).message.match(/MCP error/g), (error as Error).message).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('the SDK\'s own errors lose the code in the message too (an unknown method)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 'm', method: 'no/such/method' });
    expect(json(res)).toMatchObject({ id: 'm', error: { code: -32601, message: 'Method not found' } });
  });

  it('a bad MCP-Protocol-Version header is answered with the request\'s id', async () => {
    const res = await post({ jsonrpc: '2.0', id: 'call-77', method: 'tools/list' }, { 'MCP-Protocol-Version': '2099-01-01' });
    expect(res.status).toBe(400);
    expect(json(res)).toMatchObject({ id: 'call-77', error: { code: -32000, message: expect.stringContaining('"2099-01-01"') } });
  });
});

describe('params of the wrong type', () => {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  /** The same message in both eras: 2025 (no envelope) and 2026-07-28 (envelope and headers). */
  const bothEras = (method: string, params: Record<string, unknown>, name?: string) => [
    post({ jsonrpc: '2.0', id: 'p', method, params }, { 'MCP-Protocol-Version': '2025-11-25' }),
    post(
      { jsonrpc: '2.0', id: 'p', method, params: { ...params, _meta: envelope } },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) },
    ),
  ];

  it.each(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'])(
    '%s with a cursor that is no string: invalid params (-32602) in words, not an internal error listing zod issues',
    async (method) => {
      for (const res of await Promise.all(bothEras(method, { cursor: 123 }))) {
        expect(res.status).toBe(200);
        const { error } = json(res);
        expect(error?.code, res.text).toBe(-32602);
        expect(error?.message).toMatch(new RegExp(`^Invalid params for ${method}: cursor must be a string`));
        expect(error?.message).not.toContain('"expected"');
      }
    },
  );

  it.each<[string, Record<string, unknown>, string]>([
    ['a name that is no string', { name: 123, arguments: {} }, 'name must be a string'],
    ['no name', { arguments: {} }, 'name must be a string'],
    ['arguments that are a list', { name: 'get_business', arguments: [] }, 'arguments must be an object'],
    ['arguments that are a string', { name: 'get_business', arguments: 'x' }, 'arguments must be an object'],
  ])('tools/call with %s: -32602 saying what to send, not a zod dump', async (_case, params, words) => {
    const name = typeof params.name === 'string' ? params.name : undefined;
    for (const res of await Promise.all(bothEras('tools/call', params, name))) {
      const { error } = json(res);
      expect(error?.code, res.text).toBe(-32602);
      expect(error?.message).toBe(`Invalid params for tools/call: ${words}${words.startsWith('name') ? ', as in {"name": "…"}.' : '.'}`);
    }
  });
});

describe('zod issues are said in words', () => {
  it('a message the JSON-RPC schema refuses names the member at fault (-32600)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: {} } } });
    expect(res.status).toBe(400);
    expect(json(res).error).toEqual({ code: -32600, message: expect.stringContaining('params._meta.progressToken must be a string or a number') });
  });

  it('tools/call params the SDK refuses (a task that is no object) get -32602 naming the member, not the issues as JSON', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_business', arguments: {}, task: 5 } });
    const { error } = json(res);
    expect(error?.code, res.text).toBe(-32602);
    expect(error?.message).toMatch(/^Invalid params for tools\/call: params\.task must be an object/);
    expect(error?.message).not.toContain('"expected"');
  });
});

describe('many bad arguments', () => {
  it('a tool error names the first few and counts the rest, instead of answering ten times the request', async () => {
    const args = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_reviews', arguments: args } };
    const res = await post(message);
    expect(res.status).toBe(200);
    const { result } = json(res);
    expect(result).toMatchObject({ isError: true });
    const text = (result?.content as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(/^Invalid arguments for search_reviews: "k0" is not an argument of search_reviews; its arguments are rating,/);
    expect(text).toContain('"k4" is not an argument');
    expect(text).not.toContain('"k5" is not an argument');
    expect(text).toMatch(/And 4995 more problems like these\.$/);
    expect(res.body.length).toBeLessThan(JSON.stringify(message).length);
  });
});

describe('initialize with params of the wrong type', () => {
  it.each<[string, unknown, string]>([
    ['no params', undefined, 'params must be an object'],
    ['no protocolVersion', { capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 'protocolVersion must be a string'],
    ['a protocolVersion that is a number', { protocolVersion: 20250618, capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 'protocolVersion must be a string'],
    ['capabilities that are a list', { protocolVersion: '2025-06-18', capabilities: [], clientInfo: { name: 'x', version: '1' } }, 'capabilities must be an object'],
    ['clientInfo without a version', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x' } }, 'clientInfo must be an object with name and version strings'],
  ])('%s: -32602 in words (not -32603 with zod issues), with its id, and no session', async (_case, params, words) => {
    const res = await post({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', ...(params === undefined ? {} : { params }) });
    expect(res.status).toBe(200);
    const body = json(res);
    expect(body.id).toBe('init-1');
    expect(body.error?.code, res.text).toBe(-32602);
    expect(body.error?.message).toContain(`Invalid params for initialize: ${words}`);
    expect(body.error?.message).toContain('{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"my-client","version":"1.0"}}');
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });
});

describe('content codings', () => {
  it('a body sent with Content-Encoding is refused with 415 naming it, rather than read as its compressed bytes or as if the header were absent', async () => {
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const [coding, body] of [['gzip', gzipSync(message)], ['br', message], ['gzip, identity', gzipSync(message)]] as const) {
      const res = await rawRequest(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: JSON_TYPES, 'Content-Encoding': coding },
        body,
      });
      expect(res.status, coding).toBe(415);
      expect(res.headers['accept-encoding']).toBe('identity');
      expect(json(res).error).toMatchObject({ code: -32000, message: expect.stringContaining(`Content-Encoding: ${coding}`) });
    }
    const identity = await post(message, { 'Content-Encoding': 'identity' });
    expect(identity.status).toBe(200);
  });
});

describe('connections', () => {
  it('an aborted upload is not logged as an error, and the server answers afterwards', async () => {
    const before = server.output().length;
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`);
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
    }
    expect(json(await post({ jsonrpc: '2.0', id: 1, method: 'ping' })).result).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output().slice(before)).toBe('');
  });

  it('an SSE answer keeps Connection: close when the client asked for it', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Accept: 'text/event-stream', Connection: 'close' });
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers.connection).toBe('close');
    expect(sseMessage(res).result).toEqual({});
  });
});

describe('the result budget of the listing tools (MCP_RESULT_MAX_TOKENS)', () => {
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    // Counted as the client receives it: the whole answer.
    expect(countTokens(res.text)).toBeLessThanOrEqual(RESULT_MAX_TOKENS);
    return json(res).result as { content: { text: string }[]; structuredContent: { total: number; count: number; limit: number; next_offset?: number; reviews: { id: string }[] } };
  };

  it.each([
    ['search_reviews', {}],
    ['get_reviews_since', { date: '2000-01-01' }],
  ])('%s: a page past the budget comes back shorter, says how to get the rest, and paging through gets every review once', async (name, args) => {
    const seen: string[] = [];
    let offset = 0;
    let total = Infinity;
    for (let round = 0; round < 20 && offset < total; round++) {
      const result = await callTool(name, { ...args, offset, limit: 100 });
      const page = result.structuredContent;
      total = page.total;
      seen.push(...page.reviews.map((review) => review.id));
      if (page.next_offset === undefined) break;
      expect(page.count).toBeLessThan(page.limit);
      expect(page.next_offset).toBe(offset + page.count);
      expect(result.content[1]?.text).toMatch(new RegExp(`^This page holds ${page.count} of the 100 reviews asked for.*call again with offset ${page.next_offset}`));
      offset = page.next_offset;
    }
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
    expect(total).toBeGreaterThan(2);
  });

  it('fewer fields fit more reviews in a page; the HTTP search is never cut', async () => {
    const whole = (await callTool('search_reviews', { limit: 100 })).structuredContent;
    const few = (await callTool('search_reviews', { limit: 100, fields: 'id,rating' })).structuredContent;
    expect(few.count).toBeGreaterThan(whole.count);
    const http = JSON.parse((await rawRequest(`${server.url}/api/reviews/search?limit=100`)).text);
    expect(http.count).toBe(http.total);
    expect(http.next_offset).toBeUndefined();
  });
});
