import { describe, expect, it } from 'vitest';
import { parseMessages } from '../../../src/server/mcp/messages.ts';

describe('reading JSON-RPC messages', () => {
  it('accepts a request, a notification and a batch, and spots initialize', () => {
    const init = parseMessages('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}');
    expect(init).toMatchObject({ ok: true, initialize: true, id: 1 });
    expect(parseMessages('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatchObject({ ok: true, initialize: false, id: null });
    expect(parseMessages('[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}]', '2025-03-26')).toMatchObject({
      ok: true,
      batch: true,
    });
  });

  it('gives -32700 for a body that is not JSON', () => {
    for (const text of ['', '{', 'jsonrpc', '{"jsonrpc":"2.0",}', '\u0000']) {
      expect(parseMessages(text), JSON.stringify(text)).toMatchObject({ ok: false, code: -32700, id: null });
    }
  });

  it('gives -32600 naming the fault for JSON that is not a JSON-RPC message, keeping the id it can read', () => {
    const cases: [string, string][] = [
      ['null', 'JSON object'],
      ['42', 'JSON object'],
      ['"tools/list"', 'JSON object'],
      ['[]', 'batch'],
      ['{"id":1,"method":"ping"}', 'jsonrpc'],
      ['{"jsonrpc":"1.0","id":1,"method":"ping"}', 'jsonrpc'],
      ['{"jsonrpc":"2.0","id":1}', 'method'],
      ['{"jsonrpc":"2.0","id":1,"method":7}', 'method'],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', 'id'],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', 'id'],
      ['{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}', 'params'],
      ['{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}', '"extra"'],
      ['[{"jsonrpc":"2.0","id":1,"method":"ping"}, 5]', 'message 2 of the batch'],
    ];
    for (const [text, mentions] of cases) {
      const parsed = parseMessages(text, '2025-03-26');
      expect(parsed, text).toMatchObject({ ok: false, code: -32600 });
      if (!parsed.ok) expect(parsed.message, text).toContain(mentions);
    }
    expect(parseMessages('{"jsonrpc":"2.0","id":7,"method":"ping","params":[1]}')).toMatchObject({ id: 7 });
  });

  it('refuses a batch unless the protocol version allows one, and then one of more than 10 messages', () => {
    const batch = (length: number) => JSON.stringify(Array.from({ length }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })));
    expect(parseMessages(batch(1))).toMatchObject({ ok: false, code: -32600, message: expect.stringContaining('send one message per request') });
    expect(parseMessages(batch(10), '2025-03-26')).toMatchObject({ ok: true, batch: true });
    expect(parseMessages(batch(11), '2025-03-26')).toMatchObject({ ok: false, code: -32600, message: expect.stringContaining('1 to 10 messages, not 11') });
  });
});
