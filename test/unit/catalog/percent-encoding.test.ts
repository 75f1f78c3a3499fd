import { describe, expect, it } from 'vitest';
import { decodePathParameter, escapeMalformedPairs, malformedQueryIssues } from '../../../src/domain/catalog/percent-encoding.ts';

describe('malformed percent-encoding as issues', () => {
  it('names each parameter whose name or value cannot be decoded, once per pair', () => {
    expect(malformedQueryIssues('?query=%zz&rating=5&li%mit=3&until=%E0%A4&ok=%C3%A9').map((issue) => [issue.path, issue.code])).toEqual([
      ['query', 'malformed_percent_encoding'],
      ['li%mit', 'malformed_percent_encoding'],
      ['until', 'malformed_percent_encoding'],
    ]);
  });

  it('takes well-formed encodings and + as a space, and quotes a bad value as received', () => {
    expect(malformedQueryIssues('?query=roof+%26+gutter&x&=&%2F=%2F')).toEqual([]);
    expect(malformedQueryIssues('')).toEqual([]);
    expect(malformedQueryIssues('?a=%')[0]?.message).toMatch(/^a has a malformed percent-encoding in "%": each % must be followed by two hex digits/);
  });

  it('refuses bytes that are not UTF-8, overlong forms and lone surrogates included', () => {
    for (const raw of ['%C0%AF', '%ED%A0%80', '%FF', '%E2%82']) expect(malformedQueryIssues(`q=${raw}`)).toHaveLength(1);
  });

  it('decodes a path parameter or says why not', () => {
    expect(decodePathParameter('date', '2024-01-0%31')).toEqual({ ok: true, value: '2024-01-01' });
    expect(decodePathParameter('date', '2024-%ZZ')).toMatchObject({ ok: false, issue: { path: 'date', code: 'malformed_percent_encoding' } });
  });
});

describe('escapeMalformedPairs', () => {
  it('makes each pair that does not decode literal (every % escaped) and leaves the others as sent', () => {
    expect(escapeMalformedPairs('?query=%ED%A0%80&rating=5&since=caf%C3%A9')).toBe('?query=%25ED%25A0%2580&rating=5&since=caf%C3%A9');
    expect(escapeMalformedPairs('?q=50%zz&x=%C0%AF')).toBe('?q=50%25zz&x=%25C0%25AF');
    expect(escapeMalformedPairs('?a=%')).toBe('?a=%25');
    expect(escapeMalformedPairs('?ok=%C3%A9+x')).toBe('?ok=%C3%A9+x');
    expect(escapeMalformedPairs('')).toBe('');
  });

  it('gives a query that decodes, naming the same parameters as before', () => {
    for (const raw of ['?query=%ED%A0%80', '?q=%FF&r=%E2%82', '?li%mit=3', '?a=%zz%C3%A9']) {
      const escaped = escapeMalformedPairs(raw);
      expect(() => decodeURIComponent(escaped), raw).not.toThrow();
      expect(malformedQueryIssues(escaped), raw).toEqual([]);
    }
  });
});
