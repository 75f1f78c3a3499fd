import { describe, expect, it } from 'vitest';
import { decodePathParameter, malformedQueryIssues } from '../../../src/domain/catalog/percent-encoding.ts';

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
