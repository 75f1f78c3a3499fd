/** Verdicts of the SDK's checks kept by message shape: the id's value does not count, everything else does. */
import { describe, expect, it } from 'vitest';
import { schemaVerdicts } from '../../../src/server/mcp/schema-verdicts.ts';

const message = (id: unknown, params: object = { _meta: { a: 1 } }) => ({ jsonrpc: '2.0', id, method: 'tools/list', params });

describe('schemaVerdicts', () => {
  it('checks a shape once, whatever the id, and again for another shape or context', () => {
    const verdicts = schemaVerdicts<number>();
    let checks = 0;
    const check = () => ++checks;
    expect([verdicts.of(message(1), [], check), verdicts.of(message(2), [], check)]).toEqual([1, 1]);
    expect(verdicts.of(message('1'), [], check)).toBe(2);
    expect(verdicts.of(message(1, { _meta: { a: 2 } }), [], check)).toBe(3);
    expect(verdicts.of(message(1), ['2026-07-28'], check)).toBe(4);
    expect(verdicts.of(message(3), ['2026-07-28'], check)).toBe(4);
  });

  it('checks a long or deeply nested message every time', () => {
    const verdicts = schemaVerdicts<number>();
    let checks = 0;
    const long = message(1, { text: 'x'.repeat(5_000) });
    let deep: object = {};
    for (let i = 0; i < 200_000; i++) deep = { deep };
    for (const shape of [long, message(1, deep)]) {
      verdicts.of(shape, [], () => ++checks);
      verdicts.of(shape, [], () => ++checks);
    }
    expect(checks).toBe(4);
  });

  it('leaves the message as it was, and checks a message whose id is neither string nor number every time', () => {
    const verdicts = schemaVerdicts<unknown>();
    const sent = message(7);
    expect(verdicts.of(sent, [], () => structuredClone(sent))).toEqual(message(7));
    expect(sent).toEqual(message(7));
    expect(Object.keys(sent)).toEqual(['jsonrpc', 'id', 'method', 'params']);
    const others = schemaVerdicts<number>();
    let checks = 0;
    for (const id of [true, false, null, 1.5]) {
      others.of(message(id), [], () => ++checks);
      others.of(message(id), [], () => ++checks);
    }
    // 1.5 is a number: its shape is kept like any number's.
    expect(checks).toBe(7);
  });

  it('tells an absent header from an empty one in the context', () => {
    const verdicts = schemaVerdicts<number>();
    let checks = 0;
    const check = () => ++checks;
    expect([verdicts.of(message(1), [null], check), verdicts.of(message(2), [''], check), verdicts.of(message(3), [null], check)]).toEqual([1, 2, 1]);
    expect(verdicts.of(message(1), ['a', 'b'], check)).toBe(3);
    expect(verdicts.of(message(1), ['a\0b'], check)).toBe(4);
  });
});
