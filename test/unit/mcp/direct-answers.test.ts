import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { toByteString } from '../../../src/domain/byte-string.ts';
import type { BodyPart } from '../../../src/server/http/answer.ts';
import { directAnswer, type DirectContext, type DirectRequest } from '../../../src/server/mcp/direct-answers.ts';
import type { ToolSet } from '../../../src/server/mcp/tools/tool-set.ts';

const calls: unknown[] = [];
const tools: ToolSet = {
  list: [{ name: 'echo', inputSchema: { type: 'object' } }],
  has: (name) => name === 'echo',
  call: () => {
    throw new Error('the direct path serialises through callToJson');
  },
  callToJson: (name, args) => {
    calls.push([name, args]);
    const json = JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(args ?? {}) }], structuredContent: { args: args ?? {} } });
    // In parts, as the tools give it.
    return [toByteString(json.slice(0, 10)), toByteString(json.slice(10))];
  },
};
const lists = {
  'tools/list': ['tools', tools.list],
  'prompts/list': ['prompts', [{ name: 'p' }]],
  'resources/list': ['resources', []],
  'resources/templates/list': ['resourceTemplates', [{ uriTemplate: 'x://{id}', name: 't' }]],
} as const;
const context: DirectContext = {
  tools,
  lists,
  info: { name: 'reviews', version: '1.0.0' },
  discover: { capabilities: { tools: {} }, instructions: 'Reviews.' },
  listTtlMs: 300_000,
};
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const SERVER_INFO = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"reviews","version":"1.0.0"}}';

const message = (method: string, params: unknown, id: unknown = 7) => ({ jsonrpc: '2.0', id, method, params }) as unknown as JSONRPCMessage;
const legacy = (messages: JSONRPCMessage[], protocolVersion: string | null = '2025-06-18'): DirectRequest => ({ messages, protocolVersion, mcpMethod: null, mcpName: null });
const modern = (msg: JSONRPCMessage, headers: Partial<DirectRequest> = {}): DirectRequest => {
  const params = (msg as { params?: { name?: string } }).params;
  return { messages: [msg], protocolVersion: '2026-07-28', mcpMethod: (msg as { method: string }).method, mcpName: params?.name ?? null, ...headers };
};
const text = (answer: BodyPart[] | undefined) => Buffer.concat((answer ?? []).map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part))).toString();

describe('direct answers of the 2025 era', () => {
  it('answers a single call of a known tool in the SDK layout', () => {
    const answer = directAnswer(legacy([message('tools/call', { name: 'echo', arguments: { a: 1, b: 'Zoë’s roof' } }, 'é’')]), false, context);
    // UTF-8 bytes in a byte string, arguments and id alike.
    expect(text(answer)).toBe(
      '{"result":{"content":[{"type":"text","text":"{\\"a\\":1,\\"b\\":\\"Zoë’s roof\\"}"}],"structuredContent":{"args":{"a":1,"b":"Zoë’s roof"}}},"jsonrpc":"2.0","id":"é’"}',
    );
    expect(text(directAnswer(legacy([message('tools/call', { name: 'echo', _meta: { progressToken: 1 } })], null), false, context))).toContain('"id":7');
  });

  it('answers the lists, each made once per build', () => {
    expect(text(directAnswer(legacy([message('tools/list', undefined, 3)]), false, context))).toBe('{"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]},"jsonrpc":"2.0","id":3}');
    expect(text(directAnswer(legacy([message('prompts/list', {})]), false, context))).toBe('{"result":{"prompts":[{"name":"p"}]},"jsonrpc":"2.0","id":7}');
    expect(text(directAnswer(legacy([message('resources/list', undefined)]), false, context))).toBe('{"result":{"resources":[]},"jsonrpc":"2.0","id":7}');
    expect(text(directAnswer(legacy([message('resources/templates/list', undefined)]), false, context))).toBe(
      '{"result":{"resourceTemplates":[{"uriTemplate":"x://{id}","name":"t"}]},"jsonrpc":"2.0","id":7}',
    );
  });

  it('leaves everything unusual to the SDK', () => {
    const before = calls.length;
    const call = (params: unknown, id?: unknown) => message('tools/call', params, id);
    expect(directAnswer(legacy([call({ name: 'echo' }), call({ name: 'echo' }, 8)]), false, context)).toBeUndefined();
    expect(directAnswer(legacy([call({ name: 'other' })]), false, context)).toBeUndefined();
    expect(directAnswer(legacy([call({ name: 'echo', arguments: [1] })]), false, context)).toBeUndefined();
    expect(directAnswer(legacy([call({ name: 'echo', task: { ttl: 1 } })]), false, context)).toBeUndefined();
    expect(directAnswer(legacy([call({ name: 'echo' })], '1999-01-01'), false, context)).toBeUndefined();
    expect(directAnswer(legacy([{ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo' } } as JSONRPCMessage]), false, context)).toBeUndefined();
    expect(directAnswer(legacy([message('tools/list', { cursor: 'x' })]), false, context)).toBeUndefined();
    expect(directAnswer(legacy([message('prompts/get', { name: 'p' })]), false, context)).toBeUndefined();
    expect(directAnswer(legacy([message('hasOwnProperty', undefined)]), false, context)).toBeUndefined();
    expect(calls.length).toBe(before);
  });
});

describe('direct answers of 2026-07-28', () => {
  it('closes each result with what the SDK adds to it', () => {
    const call = message('tools/call', { name: 'echo', arguments: { a: 1 }, _meta: ENVELOPE });
    expect(text(directAnswer(modern(call), true, context))).toBe(
      `{"result":{"content":[{"type":"text","text":"{\\"a\\":1}"}],"structuredContent":{"args":{"a":1}},"resultType":"complete",${SERVER_INFO}},"jsonrpc":"2.0","id":7}`,
    );
    const list = message('tools/list', { _meta: ENVELOPE }, 'l');
    expect(text(directAnswer(modern(list), true, context))).toBe(
      `{"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}],"resultType":"complete","ttlMs":300000,"cacheScope":"public",${SERVER_INFO}},"jsonrpc":"2.0","id":"l"}`,
    );
  });

  it('answers server/discover with every version served, and only in the 2026-07-28 era', () => {
    const discover = message('server/discover', { _meta: ENVELOPE }, 'd');
    expect(text(directAnswer(modern(discover), true, context))).toBe(
      '{"result":{"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05","2024-10-07"],"capabilities":{"tools":{}},' +
        `"instructions":"Reviews.","resultType":"complete","ttlMs":300000,"cacheScope":"public",${SERVER_INFO}},"jsonrpc":"2.0","id":"d"}`,
    );
    expect(directAnswer(legacy([message('server/discover', {})]), false, context)).toBeUndefined();
    expect(directAnswer(modern(message('server/discover', { _meta: ENVELOPE, extra: 1 })), true, context)).toBeUndefined();
  });

  it('leaves to the SDK a request whose headers disagree with its body, or whose envelope holds more or less', () => {
    const before = calls.length;
    const call = message('tools/call', { name: 'echo', _meta: ENVELOPE });
    expect(directAnswer(modern(call, { mcpName: 'other' }), true, context)).toBeUndefined();
    expect(directAnswer(modern(call, { mcpMethod: 'tools/list' }), true, context)).toBeUndefined();
    expect(directAnswer(modern(call, { protocolVersion: '2025-06-18' }), true, context)).toBeUndefined();
    expect(directAnswer(modern(call, { protocolVersion: null }), true, context)).toBeUndefined();
    expect(directAnswer(modern(message('tools/call', { name: 'echo', _meta: { ...ENVELOPE, progressToken: 1 } })), true, context)).toBeUndefined();
    expect(directAnswer(modern(message('tools/call', { name: 'echo', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } })), true, context)).toBeUndefined();
    expect(directAnswer(modern(message('tools/call', { name: 'echo' })), true, context)).toBeUndefined();
    expect(directAnswer(modern(message('tools/list', { _meta: ENVELOPE, cursor: 'c' })), true, context)).toBeUndefined();
    expect(calls.length).toBe(before);
  });
});
