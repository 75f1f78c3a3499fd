import { describe, expect, it } from 'vitest';
import { generateContent } from '../../../bench/generate-content.ts';
import { BROWSE_PAGE_SIZE, browseReviews, browseUrl } from '../../../src/domain/catalog/browse.ts';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { searchReviews } from '../../../src/domain/catalog/search.ts';
import { parseSearchArguments } from '../../../src/domain/catalog/search-query.ts';
import { datasetFromFiles, fixtureDataset } from './support.ts';

const small = buildReviewCatalog(fixtureDataset('search-basic').dataset);
const browse = (query: string, catalog = small) => browseReviews(catalog, new URLSearchParams(query));
const ids = (query: string, catalog = small) => browse(query, catalog).reviews.map((r) => r.id);

describe('the review browser reads the search API filters', () => {
  it('shows every review, newest first, when nothing is asked', () => {
    const view = browse('');
    expect(view).toMatchObject({ status: 200, page: 1, pages: 1, total: 11, issues: [], described: [] });
    expect(view.reviews.map((r) => r.id)).toEqual(['r11', 'r12', 'r10', 'r08', 'r06', 'r07', 'r05', 'r04', 'r02', 'r03', 'r01']);
  });

  it('gives the same reviews as the search API for the same filters', () => {
    for (const args of [{ rating: 5 }, { min_rating: 3.5 }, { query: 'zoe' }, { mentions_technician: 'Sam' }, { mentions_service: 'gutters', since: '2024-01-01' }]) {
      const parsed = parseSearchArguments(small, args);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      const api = searchReviews(small, parsed.value).response;
      const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)])).toString();
      expect(ids(query), query).toEqual(api.reviews.map((r) => r.id));
      expect(browse(query).total, query).toBe(api.total);
    }
  });

  it('names a malformed percent-encoding in the query, as the API does, instead of searching for it', () => {
    const view = browseReviews(small, new URLSearchParams('query=50%zz&rating=5'), '?query=50%zz&rating=5');
    expect(view.status).toBe(400);
    expect(view.reviews).toEqual([]);
    expect(view.issues.map((issue) => [issue.path, issue.code])).toEqual([['query', 'malformed_percent_encoding']]);
  });

  it('refuses a repeated page as it refuses a repeated filter, rather than taking the last', () => {
    const view = browse('page=1&page=2');
    expect(view.status).toBe(400);
    expect(view.reviews).toEqual([]);
    expect(view.issues).toEqual([{ path: 'page', code: 'repeated_parameter', message: 'page is given 2 times; give it once.' }]);
    // A repeated empty page is what a form never sends, but it is still given twice.
    expect(browse('page=&page=2').issues.map((issue) => issue.code)).toEqual(['repeated_parameter']);
  });

  it('treats the empty fields a form sends as "any"', () => {
    const view = browse('query=&rating=5&min_rating=&since=&until=&mentions_technician=&mentions_service=&page=');
    expect(view.status).toBe(200);
    expect(view.filters).toEqual({ rating: '5' });
    expect(view.reviews.every((r) => r.rating === 5)).toBe(true);
    expect(view.described).toEqual(['rated 5 stars']);
  });

  it('describes the filters in words, naming technicians and services', () => {
    expect(browse('mentions_technician=zoe&mentions_service=gutters&min_rating=4').described).toEqual([
      'rated at least 4',
      'mentioning Zoë Lund',
      'about Gutter installation',
    ]);
    expect(browse('mentions_technician=Sam').described).toEqual(['mentioning Sam Ortiz or Samantha Li']);
  });
});

describe('bad parameters give a readable message, never an exception', () => {
  it.each([
    ['rating=9', 'rating', /rating must be a whole number from 1 to 5/],
    ['since=2024-02-30', 'since', /real calendar date/],
    ['since=2024-05-01&until=2024-01-01', 'since', /must not be after until/],
    ['mentions_service=roofs', 'mentions_service', /known service ids are roof-repair, gutters, skylights/],
    ['page=0', 'page', /page must be a whole number from 1/],
    ['page=two', 'page', /got "two"/],
    ['limit=5', 'limit', /"limit" is not a parameter of this endpoint; the parameters are query, rating, min_rating, since, until, mentions_technician, mentions_service, page/],
    ['min_rate=4', 'min_rate', /Did you mean "min_rating"\?/],
    ['rating=5&rating=4', 'rating', /given 2 times/],
  ])('%s', (query, path, message) => {
    const view = browse(query);
    expect(view.status).toBe(400);
    expect(view.reviews).toEqual([]);
    expect(view.issues.map((issue) => issue.path)).toContain(path);
    expect(view.issues.map((issue) => issue.message).join(' ')).toMatch(message);
  });

  it('a page past the last one is a 404 that says how many pages there are', () => {
    const view = browse('rating=5&page=4');
    expect(view.status).toBe(404);
    expect(view.issues[0]?.message).toBe('page 4 is past the last page: these filters give one page.');
  });
});

describe('paging', () => {
  const generated = buildReviewCatalog(datasetFromFiles(generateContent(2 * BROWSE_PAGE_SIZE + 5, 3)).dataset);

  it(`pages ${BROWSE_PAGE_SIZE} at a time, the pages joining to the whole list without gaps or repeats`, () => {
    const count = generated.count;
    expect(count).toBeGreaterThan(2 * BROWSE_PAGE_SIZE);
    const views = [1, 2, 3].map((page) => browse(`page=${page}`, generated));
    expect(views.map((v) => [v.status, v.pages, v.reviews.length])).toEqual([
      [200, 3, 20],
      [200, 3, 20],
      [200, 3, count - 40],
    ]);
    expect(views.flatMap((v) => v.reviews.map((r) => r.id))).toEqual(generated.entries.map((entry) => entry.id));
  });

  it('makes one URL per view: filters in a fixed order, page 1 left out, values encoded', () => {
    expect(browseUrl('/reviews', { mentions_service: 'gutters', query: 'a&b zoë', rating: '5' }, 1)).toBe('/reviews?query=a%26b+zo%C3%AB&rating=5&mentions_service=gutters');
    expect(browseUrl('/reviews', {}, 3)).toBe('/reviews?page=3');
    expect(browseUrl('/reviews', {})).toBe('/reviews');
  });
});
