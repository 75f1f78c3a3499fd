import { describe, expect, it } from 'vitest';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { invalidQueryMessage } from '../../../src/domain/catalog/query-issues.ts';
import { parseSearchArguments, parseSearchParams } from '../../../src/domain/catalog/search-query.ts';
import { fixtureDataset } from './support.ts';

const catalog = buildReviewCatalog(fixtureDataset('search-basic').dataset);
const fromUrl = (qs: string) => parseSearchParams(catalog, new URLSearchParams(qs));

function issuesOf(qs: string) {
  const parsed = fromUrl(qs);
  if (parsed.ok) throw new Error(`expected ${qs} to be refused`);
  return parsed.issues;
}

describe('parseSearchParams', () => {
  it('reads every parameter, numbers from strings, with the defaults', () => {
    expect(fromUrl('')).toEqual({ ok: true, value: { limit: 20, offset: 0 } });
    const parsed = fromUrl(
      'rating=4&min_rating=3.5&since=2024-01-01&until=2024-12-31&query=+Zoë+&mentions_technician=zoe&mentions_service=GUTTERS&limit=100&offset=7',
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        rating: 4,
        min_rating: 3.5,
        since: '2024-01-01',
        until: '2024-12-31',
        query: 'Zoë',
        mentions_technician: 'zoe',
        mentions_service: 'gutters',
        limit: 100,
        offset: 7,
      },
    });
  });

  it.each([
    ['rating=0', 'rating', 'too_small', 'whole number from 1 to 5'],
    ['rating=6', 'rating', 'too_big', 'whole number from 1 to 5'],
    ['rating=3.5', 'rating', 'invalid_type', 'whole number from 1 to 5'],
    ['rating=five', 'rating', 'invalid_type', 'got "five"'],
    ['rating=0x3', 'rating', 'invalid_type', 'whole number'],
    ['min_rating=0.5', 'min_rating', 'too_small', 'number from 1 to 5'],
    ['min_rating=5.01', 'min_rating', 'too_big', 'number from 1 to 5'],
    ['min_rating=NaN', 'min_rating', 'invalid_type', 'number from 1 to 5'],
    ['limit=0', 'limit', 'too_small', 'from 1 to 100'],
    ['limit=101', 'limit', 'too_big', 'from 1 to 100'],
    ['limit=1e2', 'limit', 'invalid_type', 'from 1 to 100'],
    ['offset=-1', 'offset', 'too_small', 'from 0'],
    ['offset=99999999999999999999', 'offset', 'too_big', 'from 0'],
    ['since=2024-02-30', 'since', 'invalid_format', 'real calendar date'],
    ['until=2023-02-29', 'until', 'invalid_format', 'real calendar date'],
    ['since=2024-1-5', 'since', 'invalid_format', 'YYYY-MM-DD'],
    ['since=yesterday', 'since', 'invalid_format', 'got "yesterday"'],
    ['since=2024-05-02&until=2024-05-01', 'since', 'since_after_until', 'after until (2024-05-01)'],
    [`query=${'x'.repeat(501)}`, 'query', 'too_big', 'at most 500 characters'],
    ['mentions_service=roofing', 'mentions_service', 'unknown_service', 'roof-repair, gutters, skylights'],
    ['rating=', 'rating', 'empty_value', 'leave it out'],
    ['query=%20%20', 'query', 'empty_value', 'leave it out'],
    ['rating=1&rating=2', 'rating', 'repeated_parameter', 'given 2 times'],
    ['min_rate=3', 'min_rate', 'unknown_parameter', 'Did you mean "min_rating"?'],
    ['Rating=3', 'Rating', 'unknown_parameter', 'Did you mean "rating"?'],
    ['q=roof', 'q', 'unknown_parameter', 'the parameters are rating, min_rating, since, until, query, mentions_technician, mentions_service, limit, offset'],
  ])('%s is refused: %s %s', (qs, path, code, text) => {
    const issues = issuesOf(qs);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path, code });
    expect(issues[0]?.message).toContain(text);
    expect(issues[0]?.message.startsWith(path) || issues[0]?.message.startsWith(`"${path}"`)).toBe(true);
  });

  it('reports every problem at once, and the message sums them up', () => {
    const issues = issuesOf('rating=9&limit=&foo=1&since=2024-13-01');
    expect(issues.map((i) => i.path).sort()).toEqual(['foo', 'limit', 'rating', 'since']);
    expect(invalidQueryMessage(issues)).toMatch(/^Invalid query: .+ And 1 more: see issues\.$/);
  });

  it('keeps odd parameter names as plain names', () => {
    expect(issuesOf('__proto__=1&constructor=2').map((i) => i.path)).toEqual(['__proto__', 'constructor']);
    expect(issuesOf(`${'n'.repeat(300)}=1`)[0]?.message.length).toBeLessThan(400);
  });
});

describe('parseSearchArguments (the MCP tool)', () => {
  it('takes JSON numbers and numeric strings alike', () => {
    expect(parseSearchArguments(catalog, { rating: 5, limit: 3 })).toEqual({ ok: true, value: { rating: 5, limit: 3, offset: 0 } });
    expect(parseSearchArguments(catalog, { rating: '5' })).toEqual(parseSearchArguments(catalog, { rating: 5 }));
  });

  it('refuses what HTTP refuses, with the same issues', () => {
    expect(parseSearchArguments(catalog, { rating: '7' })).toEqual(fromUrl('rating=7'));
    // A JSON number is quoted as a number, not as the string a query string would have held.
    expect(parseSearchArguments(catalog, { rating: 7 })).toMatchObject({ ok: false, issues: [{ path: 'rating', message: expect.stringMatching(/; got 7\.$/) }] });
    expect(parseSearchArguments(catalog, { mentions_service: 'nope' })).toEqual(fromUrl('mentions_service=nope'));
    expect(parseSearchArguments(catalog, { min_rate: 3 })).toEqual(fromUrl('min_rate=3'));
  });

  it('thousands of made-up argument names are refused quickly: only the first few get a "did you mean"', () => {
    const args = Object.fromEntries(Array.from({ length: 18_000 }, (_, i) => [`limt${i}`, 1]));
    // An edit distance for every name took about 0.7 s here (0.1 s without); the hints say which ran.
    const parsed = parseSearchArguments(catalog, args);
    if (parsed.ok) throw new Error('expected a refusal');
    expect(parsed.issues).toHaveLength(18_000);
    expect(parsed.issues[0]?.message).toMatch(/Did you mean "limit"\?$/);
    expect(parsed.issues[19]?.message).toMatch(/Did you mean/);
    expect(parsed.issues[20]?.message).not.toMatch(/Did you mean/);
  });

  it('refuses wrong JSON types and non-objects', () => {
    const parsed = parseSearchArguments(catalog, { rating: true, query: 12, since: 20240101 });
    expect(parsed.ok ? [] : parsed.issues.map((i) => i.path)).toEqual(['rating', 'since', 'query']);
    expect(parseSearchArguments(catalog, [1]).ok).toBe(false);
    expect(parseSearchArguments(catalog, 'rating=5').ok).toBe(false);
    expect(parseSearchArguments(catalog, undefined)).toEqual({ ok: true, value: { limit: 20, offset: 0 } });
  });
});
