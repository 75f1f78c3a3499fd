import { describe, expect, it } from 'vitest';
import { issuesInWords } from '../../../src/server/mcp/zod-issues-in-words.ts';

describe('zod issues in words', () => {
  it('names the member and the type it must be', () => {
    expect(issuesInWords([{ code: 'invalid_type', expected: 'object', path: ['params', 'task'], message: 'Invalid input' }])).toBe('params.task must be an object');
    expect(issuesInWords([{ code: 'invalid_type', expected: 'string', path: ['params', 'items', 2], message: 'x' }])).toBe('params.items[2] must be a string');
  });

  it('says a choice of types at one member, and follows the first shape of a union of shapes', () => {
    const choice = {
      code: 'invalid_union',
      path: ['params', '_meta', 'progressToken'],
      errors: [[{ code: 'invalid_type', expected: 'string', path: [] }], [{ code: 'invalid_type', expected: 'number', path: [] }]],
    };
    expect(issuesInWords([choice])).toBe('params._meta.progressToken must be a string or a number');
    expect(issuesInWords([{ code: 'invalid_union', path: [], errors: [[choice], [{ code: 'custom', path: ['result'], message: 'Required' }]] }])).toBe(
      'params._meta.progressToken must be a string or a number',
    );
  });

  it('reads the JSON the SDK writes of them, and gives up on anything else', () => {
    expect(issuesInWords(JSON.stringify([{ code: 'too_big', path: ['params', 'name'], message: 'Too big' }], null, 2))).toBe('params.name: Too big');
    expect(issuesInWords('not json')).toBeUndefined();
    expect(issuesInWords([])).toBeUndefined();
    expect(issuesInWords(undefined)).toBeUndefined();
  });
});
