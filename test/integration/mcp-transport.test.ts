/**
 * The transport rules of POST /mcp with raw HTTP requests (node:http sends
 * exactly the headers given): sessions, Accept, methods, Host/Origin, CORS,
 * malformed bodies, and the OpenAPI description of all of it. The fuzz is in
 * mcp-fuzz.test.ts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sessionTokens } from '../../src/server/mcp/session-token.ts';
import { TEST_SITE_URL } from '../support/build.ts';
import { rawRequest, type RawResponse } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const SECRET = 'integration-test-session-secret';
const JSON_TYPES = 'application/json, text/event-stream';

let server: RunningServer;
let twin: RunningServer;
beforeAll(async () => {
  [server, twin] = await Promise.all([
    startServer(inject('smallBuild'), { MCP_SESSION_SECRET: SECRET, MCP_ALLOWED_ORIGINS: 'https://agent.example.org' }),
    startServer(inject('smallBuild'), { MCP_SESSION_SECRET: SECRET }),
  ]);
});
afterAll(() => Promise.all([server?.stop(), twin?.stop()]));

function post(body: unknown, headers: Record<string, string> = {}, target = server): Promise<RawResponse> {
  return rawRequest(`${target.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const initialize = (protocolVersion = '2025-06-18') => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});
const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const bodyOf = (res: RawResponse) => JSON.parse(res.text) as { id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

describe('sessions', () => {
  it('initialize answers JSON with a session id and the asked protocol version', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post(initialize(version), { Accept: JSON_TYPES });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['mcp-session-id']).toMatch(/^v2\.[\x21-\x7e]+$/);
      expect(bodyOf(res).result).toMatchObject({ protocolVersion: version, serverInfo: { name: 'reviews' } });
    }
  });

  it('an unknown protocol version is answered with the latest one', async () => {
    const res = await post(initialize('1999-01-01'));
    expect(bodyOf(res).result?.protocolVersion).toBe('2025-11-25');
  });

  it('serves a request with no session id and no Accept, as the spec example sends it', async () => {
    const res = await post(toolsList);
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect((bodyOf(res).result?.tools as unknown[]).length).toBe(5);
  });

  it('serves the session id on later requests, on any instance with the same secret', async () => {
    const id = String((await post(initialize())).headers['mcp-session-id']);
    for (const target of [server, twin]) {
      const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' }, target);
      expect(notified.status).toBe(202);
      expect(notified.text).toBe('');
      const res = await post(toolsList, { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' }, target);
      expect(res.status).toBe(200);
      expect(res.headers['mcp-session-id']).toBe(id);
    }
  });

  it('a forged, foreign or expired session id gets 404 with a JSON-RPC error that says to initialize again', async () => {
    const genuine = String((await post(initialize())).headers['mcp-session-id']);
    const forged = genuine.slice(0, -1) + (genuine.endsWith('A') ? 'B' : 'A');
    const foreign = sessionTokens({ secret: 'some other deployment secret' }).issue('2025-06-18');
    const expired = sessionTokens({ secret: SECRET, now: () => Date.now() - 25 * 3600 * 1000 }).issue('2025-06-18');
    for (const [id, why] of [[forged, 'not one this server issued'], [foreign, 'not one this server issued'], ['123', 'not one'], [expired, 'expired']]) {
      const res = await post(toolsList, { 'Mcp-Session-Id': id as string });
      expect(res.status, id).toBe(404);
      expect(bodyOf(res)).toMatchObject({ id: 2, error: { code: -32001 } });
      expect(bodyOf(res).error?.message).toContain(why);
      expect(bodyOf(res).error?.message).toContain('initialize again');
    }
  });

  it('initialize with a stale session id starts a new session', async () => {
    const res = await post(initialize(), { 'Mcp-Session-Id': 'stale' });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).not.toBe('stale');
  });

  it('an unsupported MCP-Protocol-Version header is a 400', async () => {
    const res = await post(toolsList, { 'MCP-Protocol-Version': '1999-01-01' });
    expect(res.status).toBe(400);
    expect(bodyOf(res)).toMatchObject({ id: 2, error: { code: -32000 } });
    expect(bodyOf(res).error?.message).toContain('"1999-01-01" is not one this server speaks; it speaks 2026-07-28, 2025-11-25, 2025-06-18');
  });
});

describe('Accept and Content-Type', () => {
  it.each(['*/*', 'application/json', JSON_TYPES, 'application/*'])('Accept %s gets JSON', async (accept) => {
    const res = await post(toolsList, { Accept: accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('Accept: text/event-stream alone gets the answer as an SSE event', async () => {
    const res = await post(initialize(), { Accept: 'text/event-stream', 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-store, no-transform');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['mcp-session-id']).toMatch(/^v2\.\w+\.2025-06-18\./);
    const data = /^data: (.+)$/m.exec(res.text)?.[1];
    expect(JSON.parse(data ?? 'null')).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18' } });
  });

  it('Accept without JSON or SSE is a 406', async () => {
    const res = await post(toolsList, { Accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(bodyOf(res).error?.message).toContain('Accept: application/json, text/event-stream');
  });

  it('a body that is not sent as JSON is a 415; a body with no Content-Type is read as JSON', async () => {
    const form = await post(toolsList, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(bodyOf(form).error?.code).toBe(-32000);
    const bare = await rawRequest(`${server.url}/mcp`, { method: 'POST', body: JSON.stringify(toolsList) });
    expect(bare.status).toBe(200);
  });
});

describe('methods', () => {
  it.each(['GET', 'DELETE', 'PUT', 'PATCH'])('%s is a 405 with Allow: POST', async (method) => {
    const res = await rawRequest(`${server.url}/mcp`, { method, headers: { Accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(bodyOf(res)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });
});

describe('Host, Origin and CORS', () => {
  it('refuses a foreign Host or Origin (DNS rebinding) with 403', async () => {
    const host = await post(toolsList, { Host: 'evil.example.com' });
    const origin = await post(toolsList, { Origin: 'http://evil.example.com' });
    for (const res of [host, origin]) {
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(bodyOf(res).error?.code).toBe(-32000);
    }
  });

  it('serves the site host, the site origin, configured origins and loopback origins, exposing the session id', async () => {
    const cases: Record<string, string>[] = [
      { Host: new URL(TEST_SITE_URL).host, Origin: TEST_SITE_URL },
      { Origin: 'https://agent.example.org' },
      { Host: `localhost:${server.port}`, Origin: `http://localhost:${server.port}` },
    ];
    for (const headers of cases) {
      const res = await post(initialize(), headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(headers.Origin);
      expect(res.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
      expect(res.headers.vary).toContain('Origin');
    }
  });

  it('answers a preflight from an allowed origin, and refuses one from another', async () => {
    const preflight = (origin: string) =>
      rawRequest(`${server.url}/mcp`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-session-id' },
      });
    const allowed = await preflight('https://agent.example.org');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://agent.example.org');
    expect(allowed.headers['access-control-allow-methods']).toContain('POST');
    expect(allowed.headers['access-control-allow-headers']).toMatch(/Mcp-Session-Id/);
    expect(allowed.headers['access-control-allow-headers']).toMatch(/Mcp-Protocol-Version/);
    const refused = await preflight('https://evil.example.com');
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('malformed bodies', () => {
  it('a body that is not JSON is a parse error (-32700) with 400', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(bodyOf(res)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('JSON that is not a JSON-RPC message is an invalid request (-32600) with 400', async () => {
    for (const body of ['[]', '{}', '"ping"', '{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}']) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(bodyOf(res).error?.code, body).toBe(-32600);
    }
    expect(bodyOf(await post('{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}')).id).toBe(5);
  });

  it('an unknown method is a -32601 for its id', async () => {
    const res = await post({ jsonrpc: '2.0', id: 'x', method: 'reviews/delete' });
    expect(res.status).toBe(200);
    expect(bodyOf(res)).toMatchObject({ id: 'x', error: { code: -32601 } });
  });

  it('a body over 256 KiB is a 413, whether announced or streamed', async () => {
    const big = JSON.stringify({ ...toolsList, params: { pad: 'x'.repeat(300 * 1024) } });
    const announced = await post(big);
    expect(announced.status).toBe(413);
    expect(bodyOf(announced).error?.message).toContain('262144 bytes');
    const streamed = await rawRequest(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: big,
    });
    expect(streamed.status).toBe(413);
  });
});

describe('the OpenAPI description of POST /mcp', () => {
  it('documents every status the endpoint answers, with bodies that match its schemas', async () => {
    const doc = JSON.parse((await rawRequest(`${server.url}/.well-known/openapi.json`)).text);
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(doc, 'openapi.json');
    const schemaOf = (status: number) => {
      const validate = ajv.getSchema(`openapi.json#/paths/~1mcp/post/responses/${status}/content/application~1json/schema`);
      if (!validate) throw new Error(`no schema for POST /mcp ${status}`);
      return validate;
    };
    const answers = await Promise.all([
      post(initialize()),
      post({ jsonrpc: '2.0', id: 9, method: 'nope' }),
      post('{'),
      post(toolsList, { Origin: 'https://evil.example.com' }),
      post(toolsList, { 'Mcp-Session-Id': 'forged' }),
      post(toolsList, { Accept: 'image/png' }),
      post('x'.repeat(300 * 1024)),
      post(toolsList, { 'Content-Type': 'text/plain' }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 400, 403, 404, 406, 413, 415]);
    for (const res of answers) {
      const validate = schemaOf(res.status);
      expect(validate(JSON.parse(res.text)), `${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    expect(Object.keys(doc.paths['/mcp'].post.responses)).toEqual(['200', '202', '400', '403', '404', '406', '413', '415']);
  });
});

describe('tools/call answered directly and by the SDK', () => {
  // JSON answers take the direct path; an SSE answer always goes through the SDK's server and transport.
  const calls: [string, Record<string, unknown> | undefined][] = [
    ['search_reviews', { rating: 5 }],
    ['search_reviews', { query: 'ZOE', limit: 2 }],
    ['search_reviews', { min_rate: 3 }],
    ['get_reviews_since', { date: '2024-01-01', limit: 2 }],
    ['get_review', { id: 'a-one' }],
    ['get_review', { id: 'nope' }],
    ['get_business', undefined],
    ['get_insights', { section: 'faq' }],
  ];

  it.each(calls)('%s %j gives the same answer both ways', async (name, args) => {
    const message = { jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: args === undefined ? { name } : { name, arguments: args } };
    const direct = await post(message, { Accept: JSON_TYPES, 'MCP-Protocol-Version': '2025-06-18' });
    const viaSdk = await post(message, { Accept: 'text/event-stream', 'MCP-Protocol-Version': '2025-06-18' });
    expect(direct.status).toBe(200);
    expect(direct.headers['content-type']).toBe('application/json');
    expect(direct.headers['cache-control']).toBe('no-store');
    const sdkAnswer = JSON.parse(/^data: (.+)$/m.exec(viaSdk.text)?.[1] ?? 'null');
    expect(JSON.parse(direct.text)).toEqual(sdkAnswer);
    expect(sdkAnswer).toMatchObject({ jsonrpc: '2.0', id: 'call-1', result: { content: [{ type: 'text' }] } });
  });

  const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];

  it.each(LISTS)('%s of the 2025 era gives the same answer both ways', async (method) => {
    const message = { jsonrpc: '2.0', id: 2, method };
    const direct = await post(message, { Accept: JSON_TYPES, 'MCP-Protocol-Version': '2025-06-18' });
    const viaSdk = await post(message, { Accept: 'text/event-stream', 'MCP-Protocol-Version': '2025-06-18' });
    expect(direct.status).toBe(200);
    expect(direct.text).toBe(/^data: (.+)$/m.exec(viaSdk.text)?.[1]);
  });

  it.each([...calls.map(([name, args]) => ['tools/call', name, args] as const), ...LISTS.map((method) => [method, undefined, undefined] as const)])(
    '2026-07-28 %s %s %j: the same bytes both ways',
    async (method, name, args) => {
      const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      const params = (meta: Record<string, unknown>) => ({ ...(name === undefined ? {} : { name }), ...(args === undefined ? {} : { arguments: args }), _meta: meta });
      const headers = { Accept: JSON_TYPES, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(name === undefined ? {} : { 'Mcp-Name': name }) };
      const direct = await post({ jsonrpc: '2.0', id: 'm-1', method, params: params(envelope) }, headers);
      // A progress token is something the direct path leaves to the SDK; a JSON answer sends no progress, so the answer is the same.
      const viaSdk = await post({ jsonrpc: '2.0', id: 'm-1', method, params: params({ ...envelope, progressToken: 'p' }) }, headers);
      expect([direct.status, viaSdk.status]).toEqual([200, 200]);
      expect(direct.text).toBe(viaSdk.text);
      expect(direct.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(direct.text)).toMatchObject({ result: { resultType: 'complete' } });
    },
  );

  it('2026-07-28 server/discover: the same bytes both ways', async () => {
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const headers = { Accept: JSON_TYPES, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' };
    const direct = await post({ jsonrpc: '2.0', id: 'd-1', method: 'server/discover', params: { _meta: envelope } }, headers);
    const viaSdk = await post({ jsonrpc: '2.0', id: 'd-1', method: 'server/discover', params: { _meta: { ...envelope, progressToken: 'p' } } }, headers);
    expect([direct.status, viaSdk.status]).toEqual([200, 200]);
    expect(direct.text).toBe(viaSdk.text);
    expect(direct.headers['cache-control']).toBe(viaSdk.headers['cache-control']);
  });

  it('an unsupported protocol version is refused on the direct path too', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_business' } }, { Accept: JSON_TYPES, 'MCP-Protocol-Version': '1999-01-01' });
    expect(res.status).toBe(400);
    expect(bodyOf(res)).toMatchObject({ id: 1, error: { code: -32000 } });
    expect(bodyOf(res).error?.message).toContain('"1999-01-01" is not one this server speaks; it speaks 2026-07-28, 2025-11-25, 2025-06-18');
  });

  it('keeps the session id and refuses a forged one before any tool runs', async () => {
    const sessionId = String((await post(initialize(), { Accept: JSON_TYPES })).headers['mcp-session-id']);
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_business', arguments: {} } };
    const ok = await post(call, { Accept: JSON_TYPES, 'Mcp-Session-Id': sessionId });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toBe(sessionId);
    const forged = await post(call, { Accept: JSON_TYPES, 'Mcp-Session-Id': `${sessionId}x` });
    expect(forged.status).toBe(404);
  });
});

describe('protocol 2026-07-28 over raw HTTP', () => {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const modernHeaders = (method: string, name?: string): Record<string, string> => ({
    Accept: JSON_TYPES,
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(name ? { 'Mcp-Name': name } : {}),
  });

  it('server/discover lists every version served, with the capabilities, resultType and cache fields', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } }, modernHeaders('server/discover'));
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(bodyOf(res).result).toMatchObject({
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'],
      capabilities: { tools: {}, resources: {} },
      resultType: 'complete',
      ttlMs: 300_000,
      cacheScope: 'public',
    });
  });

  it('tools/call needs no session and answers as in 2025, plus resultType', async () => {
    const message = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_review', arguments: { id: 'a-one' }, _meta: envelope } };
    const modern = await post(message, modernHeaders('tools/call', 'get_review'));
    expect(modern.status).toBe(200);
    expect(modern.headers['mcp-session-id']).toBeUndefined();
    const legacy = await post({ ...message, params: { name: 'get_review', arguments: { id: 'a-one' } } }, { Accept: JSON_TYPES, 'MCP-Protocol-Version': '2025-11-25' });
    const { resultType, _meta, ...rest } = bodyOf(modern).result as Record<string, unknown>;
    expect(resultType).toBe('complete');
    expect(_meta).toMatchObject({ 'io.modelcontextprotocol/serverInfo': { name: 'reviews' } });
    expect(rest).toEqual(bodyOf(legacy).result);
  });

  it('refuses a body whose headers disagree with it, and a missing envelope, naming the fault', async () => {
    const message = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope } };
    const missing = await post(message, { Accept: JSON_TYPES, 'MCP-Protocol-Version': '2026-07-28' });
    expect(missing.status).toBe(400);
    expect(bodyOf(missing)).toMatchObject({ id: 3, error: { code: -32020, message: expect.stringContaining('Mcp-Method header is absent') } });
    const noEnvelope = await post({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, modernHeaders('tools/list'));
    expect(noEnvelope.status).toBe(400);
    expect(bodyOf(noEnvelope)).toMatchObject({ id: 4, error: { code: -32602 } });
  });

  it('refuses a batch', async () => {
    const res = await post([{ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: envelope } }], modernHeaders('tools/list'));
    expect(res.status).toBe(400);
    expect(bodyOf(res).error?.code).toBe(-32600);
  });
});
