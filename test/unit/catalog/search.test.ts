import { fromByteString, joinBytes } from '../../../src/domain/byte-string.ts';
import { describe, expect, it } from 'vitest';
import { generateContent } from '../../../bench/generate-content.ts';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { searchReviews } from '../../../src/domain/catalog/search.ts';
import { parseSearchArguments } from '../../../src/domain/catalog/search-query.ts';
import { serializeJson } from '../../../src/domain/datasets.ts';
import type { ReviewsDataset } from '../../../src/domain/schemas/datasets.ts';
import type { SearchQuery } from '../../../src/domain/schemas/search.ts';
import { datasetFromFiles, fixtureDataset } from './support.ts';

const { dataset } = fixtureDataset('search-basic');
const catalog = buildReviewCatalog(dataset);

function search(args: Record<string, unknown>) {
  const parsed = parseSearchArguments(catalog, args);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return searchReviews(catalog, parsed.value);
}
const ids = (args: Record<string, unknown>) => search(args).response.reviews.map((r) => r.id);

describe('searchReviews on a small catalog', () => {
  it('returns every verified review, newest first with ties by id, 20 at a time', () => {
    const { response } = search({});
    expect(response).toMatchObject({ total: 11, count: 11, offset: 0, limit: 20 });
    expect(response.reviews.map((r) => r.id)).toEqual(['r11', 'r12', 'r10', 'r08', 'r06', 'r07', 'r05', 'r04', 'r02', 'r03', 'r01']);
  });

  it('pages with offset and limit; total counts every match', () => {
    expect(search({ limit: 3, offset: 2 }).response).toMatchObject({ total: 11, count: 3, offset: 2, limit: 3 });
    expect(ids({ limit: 3, offset: 2 })).toEqual(['r10', 'r08', 'r06']);
    expect(search({ offset: 50 }).response).toMatchObject({ total: 11, count: 0, reviews: [] });
    expect(ids({ rating: 5, limit: 1, offset: 1 })).toEqual(['r06']);
  });

  it('finds text case- and accent-insensitively in the title and the text', () => {
    expect(ids({ query: 'zoe' })).toEqual(['r08', 'r06']);
    expect(ids({ query: 'ZOË' })).toEqual(['r08', 'r06']);
    expect(ids({ query: 'creme de la' })).toEqual(['r04']);
    expect(ids({ query: 'TOMÁS' })).toEqual(['r11', 'r03']);
  });

  it('matches substrings, across words, punctuation and collapsed white space', () => {
    expect(ids({ query: 'lea' })).toEqual(['r10', 'r08', 'r06', 'r07', 'r03']); // r07: "cleaned"
    expect(ids({ query: "didn't leak in" })).toEqual(['r03']);
    expect(ids({ query: 'roof leak' })).toEqual(['r08', 'r06']);
    expect(ids({ query: 'by 10%' })).toEqual(['r10']);
    expect(ids({ query: '%' })).toEqual(['r10']);
    expect(ids({ query: '?' })).toEqual(['r04']);
  });

  it('never matches across the end of the title and the start of the text', () => {
    expect(ids({ query: 'quite the new' })).toEqual([]);
    expect(ids({ query: 'not quite' })).toEqual(['r04']);
  });

  it('finds technicians by id, name or alias, tagged or named in the text', () => {
    for (const name of ['zoe-lund', 'Zoë Lund', 'zoe lund', 'ZOE']) expect(ids({ mentions_technician: name }), name).toEqual(['r08', 'r06', 'r02']);
    expect(ids({ mentions_technician: 'tomas' })).toEqual(['r11', 'r03']);
    expect(ids({ mentions_technician: 'Tommy' })).toEqual(['r11', 'r03']);
  });

  it('an alias two technicians share finds both; a name nobody has finds nothing', () => {
    expect(ids({ mentions_technician: 'Sam' })).toEqual(['r06', 'r07']);
    expect(ids({ mentions_technician: 'Samantha Li' })).toEqual(['r06', 'r07']);
    expect(ids({ mentions_technician: 'sam-ortiz' })).toEqual(['r06']);
    expect(search({ mentions_technician: 'Nobody Atall' }).response).toMatchObject({ total: 0, count: 0, reviews: [] });
    expect(ids({ mentions_technician: 'Ivan Petrov' })).toEqual([]);
  });

  it('filters by service id, tagged or named by alias', () => {
    expect(ids({ mentions_service: 'gutters' })).toEqual(['r11', 'r04']);
    expect(ids({ mentions_service: 'roof-repair' })).toEqual(['r10', 'r05']);
    expect(ids({ mentions_service: 'skylights' })).toEqual(['r03']);
  });

  it('filters by exact and minimum rating', () => {
    expect(ids({ rating: 5 })).toEqual(['r08', 'r06', 'r02']);
    expect(ids({ min_rating: 3.5 })).toEqual(['r11', 'r08', 'r06', 'r07', 'r02', 'r03']);
    expect(ids({ min_rating: 4 })).toEqual(ids({ min_rating: 3.5 }));
    expect(ids({ min_rating: 1 })).toHaveLength(11);
    expect(ids({ rating: 2, min_rating: 3 })).toEqual([]);
  });

  it('filters by an inclusive date range', () => {
    expect(ids({ since: '2023-01-10', until: '2024-02-29' })).toEqual(['r06', 'r07', 'r05', 'r04', 'r02', 'r03']);
    expect(ids({ since: '2024-05-20' })).toEqual(['r11', 'r12']);
    expect(ids({ until: '2022-11-02' })).toEqual(['r01']);
    expect(ids({ since: '2024-05-21' })).toEqual([]);
    expect(ids({ since: '2023-01-11', until: '2023-06-29' })).toEqual([]);
  });

  it('combines filters with AND', () => {
    expect(ids({ rating: 5, query: 'zoe' })).toEqual(['r08', 'r06']);
    expect(ids({ mentions_technician: 'zoe', until: '2023-12-31' })).toEqual(['r02']);
    expect(ids({ query: 'leak', min_rating: 4, since: '2024-01-01', mentions_technician: 'sam' })).toEqual(['r06']);
  });

  it('gives the body as JSON text equal to the response object, reviews byte for byte as published', () => {
    const { bytes } = fixtureDataset('search-basic');
    for (const args of [{}, { query: 'zoe', limit: 1 }, { offset: 99 }]) {
      const result = search(args);
      expect(fromByteString(joinBytes(result.json()))).toBe(serializeJson(result.response));
      for (const review of result.response.reviews) expect(bytes).toContain(JSON.stringify(review));
    }
  });
});

/** The obvious implementation: every filter checked on every review. */
function naiveSearch(data: ReviewsDataset, q: SearchQuery): string[] {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  const techIds = q.mentions_technician === undefined ? undefined : new Set(
    data.business.technicians.filter((t) => [t.id, t.name, ...t.aliases].some((n) => fold(n) === fold(q.mentions_technician as string))).map((t) => t.id),
  );
  return data.reviews
    .filter((r) => q.rating === undefined || r.rating === q.rating)
    .filter((r) => q.min_rating === undefined || r.rating >= q.min_rating)
    .filter((r) => (q.since === undefined || r.date >= q.since) && (q.until === undefined || r.date <= q.until))
    .filter((r) => q.query === undefined || [r.title, r.text].some((t) => t !== null && fold(t).includes(fold(q.query as string))))
    .filter((r) => techIds === undefined || r.technicians.some((t) => techIds.has(t.id)))
    .filter((r) => q.mentions_service === undefined || r.services.some((s) => s.id === q.mentions_service))
    .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1))
    .map((r) => r.id);
}

describe('searchReviews agrees with a plain filter over generated content', () => {
  const generated = datasetFromFiles(generateContent(1500, 7)).dataset;
  const big = buildReviewCatalog(generated);
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const day = () => `${2015 + Math.floor(rnd() * 11)}-${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`;
  const texts = ['leak', 'roof leak', 'ZOË', 'tomas', 'nail', 'crew was', 'the', 'e', '$', '21 days', 'gutter guards', 'xyzzy', 'walk-through', 'doesn’t'];
  const technicians = ['zoe', 'Zoë Park', 'tomas-villarreal', 'Ana Lucía', 'ana lucia', 'marcus', 'nobody'];

  it('for 300 random combinations of filters', () => {
    const totals: number[] = [];
    for (let i = 0; i < 300; i++) {
      const args: Record<string, unknown> = { limit: 100 };
      if (rnd() < 0.3) args.rating = 1 + Math.floor(rnd() * 5);
      if (rnd() < 0.3) args.min_rating = 1 + Math.round(rnd() * 8) / 2;
      if (rnd() < 0.4) args.since = day();
      if (rnd() < 0.4) args.until = day();
      if (args.since && args.until && (args.since as string) > (args.until as string)) [args.since, args.until] = [args.until, args.since];
      if (rnd() < 0.5) args.query = pick(texts);
      if (rnd() < 0.3) args.mentions_technician = pick(technicians);
      if (rnd() < 0.3) args.mentions_service = pick(generated.business.services).id;
      if (rnd() < 0.3) args.offset = Math.floor(rnd() * 50);
      const parsed = parseSearchArguments(big, args);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      const expected = naiveSearch(generated, parsed.value);
      const { response } = searchReviews(big, parsed.value);
      const offset = parsed.value.offset;
      totals.push(expected.length);
      expect({ args, total: response.total, ids: response.reviews.map((r) => r.id) }).toEqual({
        args,
        total: expected.length,
        ids: expected.slice(offset, offset + 100),
      });
    }
    // The combinations are not all trivial: many match something, some more than a page.
    expect(totals.filter((t) => t > 0).length).toBeGreaterThan(100);
    expect(totals.filter((t) => t > 100).length).toBeGreaterThan(20);
  });
});

describe('the body as a JSON string literal (the text copy of MCP answers)', () => {
  it.each<Record<string, unknown>>([{}, { rating: 5, limit: 3 }, { query: 'zoe' }, { since: '2099-01-01' }, { limit: 100 }])(
    'jsonLiteral() is JSON.stringify(json()) for %j',
    (args) => {
      const result = search(args);
      expect(fromByteString(joinBytes(result.jsonLiteral()))).toBe(JSON.stringify(fromByteString(joinBytes(result.json()))));
      // Prepared once and reused.
      expect(fromByteString(joinBytes(result.jsonLiteral()))).toBe(JSON.stringify(fromByteString(joinBytes(result.json()))));
    },
  );
});
