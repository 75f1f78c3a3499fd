import { describe, expect, it } from 'vitest';
import { etagMatches, isNotModified, lastModifiedOf, parseHttpDate } from '../../../src/server/http/conditional.ts';

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

  it('If-Modified-Since is ignored unless it is an HTTP-date (RFC 9110 13.1.3), however Date.parse would read it', () => {
    for (const lenient of ['3000', '2099-01-01', 'Dec 25 2099', 'tomorrow 9999', '2099', 'thu, 01 jan 2099 00:00:00 gmt', 'Thu, 01 Jan 2099 00:00:00 +0000']) {
      expect(isNotModified({ ifModifiedSince: lenient }, validators), lenient).toBe(false);
    }
    // The three forms a recipient must accept: IMF-fixdate, RFC 850 and asctime (which is UTC, whatever the server's zone).
    for (const date of ['Sat, 01 Jun 2030 00:00:00 GMT', 'Saturday, 01-Jun-30 00:00:00 GMT', 'Sat Jun  1 00:00:00 2030']) {
      expect(isNotModified({ ifModifiedSince: date }, validators), date).toBe(true);
    }
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  it('Last-Modified of a date is that day at midnight UTC', () => {
    expect(lastModifiedOf('2024-05-01')?.toUTCString()).toBe('Wed, 01 May 2024 00:00:00 GMT');
    expect(lastModifiedOf(null)).toBeUndefined();
  });
});
