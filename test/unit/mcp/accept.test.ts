import { describe, expect, it } from 'vitest';
import { responseMode } from '../../../src/server/mcp/accept.ts';

describe('answer form by Accept', () => {
  it.each([
    [null, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['application/json, text/event-stream', 'json'],
    ['text/event-stream, application/json', 'json'],
    ['application/*', 'json'],
    ['text/event-stream', 'sse'],
    ['text/*', 'sse'],
    ['application/json;q=0, text/event-stream', 'sse'],
    ['text/html', undefined],
    ['application/xml, text/plain', undefined],
    ['application/json;q=0', undefined],
  ])('%j → %s', (accept, mode) => {
    expect(responseMode(accept)).toBe(mode);
  });
});
