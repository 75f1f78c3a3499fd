import { describe, expect, it } from 'vitest';
import { etagMatches, isNotModified, lastModifiedOf } from '../../../src/server/http/conditional.ts';

const validators = { etags: ['"abc"', '"abc-br"'], lastModified: new Date('2024-05-01T00:00:00Z') };

describe('conditional requests', () => {
  it('compares entity tags weakly, in lists, and with *', () => {
    expect(etagMatches('"abc"', validators.etags)).toBe(true);
    expect(etagMatches('W/"abc"', validators.etags)).toBe(true);
    expect(etagMatches('"x", W/"abc-br"', validators.etags)).toBe(true);
    expect(etagMatches('*', validators.etags)).toBe(true);
    expect(etagMatches('"abcd"', validators.etags)).toBe(false);
    expect(etagMatches('abc', validators.etags)).toBe(false);
  });

  it('If-None-Match wins over If-Modified-Since', () => {
    expect(isNotModified({ ifNoneMatch: '"old"', ifModifiedSince: 'Sat, 01 Jun 2030 00:00:00 GMT' }, validators)).toBe(false);
    expect(isNotModified({ ifNoneMatch: '"abc"', ifModifiedSince: 'Sat, 01 Jun 2000 00:00:00 GMT' }, validators)).toBe(true);
  });

  it('If-Modified-Since compares whole seconds and ignores garbage', () => {
    expect(isNotModified({ ifModifiedSince: 'Wed, 01 May 2024 00:00:00 GMT' }, validators)).toBe(true);
    expect(isNotModified({ ifModifiedSince: 'Tue, 30 Apr 2024 23:59:59 GMT' }, validators)).toBe(false);
    expect(isNotModified({ ifModifiedSince: 'not a date' }, validators)).toBe(false);
    expect(isNotModified({}, validators)).toBe(false);
  });

  it('Last-Modified of a date is that day at midnight UTC', () => {
    expect(lastModifiedOf('2024-05-01')?.toUTCString()).toBe('Wed, 01 May 2024 00:00:00 GMT');
    expect(lastModifiedOf(null)).toBeUndefined();
  });
});
