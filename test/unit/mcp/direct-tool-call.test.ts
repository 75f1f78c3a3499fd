import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { fromByteString, joinBytes, toByteString, type ByteString } from '../../../src/domain/byte-string.ts';
import { directToolCall } from '../../../src/server/mcp/direct-tool-call.ts';
import type { ToolSet } from '../../../src/server/mcp/tools/tool-set.ts';

const calls: unknown[] = [];
const tools: ToolSet = {
  list: [],
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
const call = (params: unknown, id: unknown = 7) => [{ jsonrpc: '2.0', id, method: 'tools/call', params }] as unknown as JSONRPCMessage[];

describe('directToolCall', () => {
  it('answers a single call of a known tool in the SDK layout', () => {
    const answer = directToolCall(call({ name: 'echo', arguments: { a: 1, b: 'Zoë’s roof' } }, 'é’'), '2025-06-18', tools);
    // UTF-8 bytes in a byte string, arguments and id alike.
    expect(fromByteString(joinBytes(answer as ByteString[]))).toBe(
      '{"result":{"content":[{"type":"text","text":"{\\"a\\":1,\\"b\\":\\"Zoë’s roof\\"}"}],"structuredContent":{"args":{"a":1,"b":"Zoë’s roof"}}},"jsonrpc":"2.0","id":"é’"}',
    );
    expect(joinBytes(directToolCall(call({ name: 'echo', _meta: { progressToken: 1 } }), null, tools) ?? [])).toContain('"id":7');
  });

  it('leaves everything unusual to the SDK', () => {
    const before = calls.length;
    expect(directToolCall([...call({ name: 'echo' }), ...call({ name: 'echo' }, 8)], null, tools)).toBeUndefined();
    expect(directToolCall(call({ name: 'other' }), null, tools)).toBeUndefined();
    expect(directToolCall(call({ name: 'echo', arguments: [1] }), null, tools)).toBeUndefined();
    expect(directToolCall(call({ name: 'echo', task: { ttl: 1 } }), null, tools)).toBeUndefined();
    expect(directToolCall(call({ name: 'echo' }), '1999-01-01', tools)).toBeUndefined();
    expect(directToolCall([{ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo' } }] as JSONRPCMessage[], null, tools)).toBeUndefined();
    expect(directToolCall([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }] as JSONRPCMessage[], null, tools)).toBeUndefined();
    expect(calls.length).toBe(before);
  });
});
