/** The widget's parameters and reviews: the search's filters and reviews, with its own limit and sort. */
import { describe, expect, it } from 'vitest';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { searchReviews } from '../../../src/domain/catalog/search.ts';
import { parseSearchParams } from '../../../src/domain/catalog/search-query.ts';
import type { Review } from '../../../src/domain/schemas/review.ts';
import { widgetResponseSchema } from '../../../src/domain/schemas/widget.ts';
import { siteUrls } from '../../../src/domain/site-urls.ts';
import { excerptOf, widgetDocument, widgetSelection } from '../../../src/domain/widget/widget-document.ts';
import { parseWidgetParams, widgetQueryKey, type WidgetQuery } from '../../../src/domain/widget/widget-query.ts';
import { fixtureDataset } from '../catalog/support.ts';

const { dataset } = fixtureDataset('search-basic');
const catalog = buildReviewCatalog(dataset);
const urls = siteUrls('https://reviews.example/');

function parse(qs: string): WidgetQuery {
  const parsed = parseWidgetParams(catalog, new URLSearchParams(qs));
  if (!parsed.ok) throw new Error(`expected ${qs} to be accepted: ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
}

function issuesOf(qs: string) {
  const parsed = parseWidgetParams(catalog, new URLSearchParams(qs));
  if (parsed.ok) throw new Error(`expected ${qs} to be refused`);
  return parsed.issues;
}

/** The search API's reviews for the same filters, as the HTTP search would give them. */
function searched(qs: string): Review[] {
  const parsed = parseSearchParams(catalog, new URLSearchParams(qs));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return searchReviews(catalog, parsed.value).response.reviews as Review[];
}

describe('parseWidgetParams', () => {
  it('defaults to the 5 newest, and passes the filters on as the search reads them', () => {
    expect(parse('')).toEqual({ search: { limit: 5, offset: 0 }, sort: 'newest', filters: {} });
    expect(parse('limit=20&sort=best&min_rating=3.5&mentions_service=GUTTERS&mentions_technician=zoe')).toEqual({
      search: { limit: 20, offset: 0, min_rating: 3.5, mentions_service: 'gutters', mentions_technician: 'zoe' },
      sort: 'best',
      filters: { min_rating: '3.5', mentions_service: 'GUTTERS', mentions_technician: 'zoe' },
    });
  });

  it.each([
    ['limit=0', 'limit', 'too_small'],
    ['limit=21', 'limit', 'too_big'],
    ['limit=2.5', 'limit', 'invalid_type'],
    ['limit=five', 'limit', 'invalid_type'],
    ['sort=worst', 'sort', 'invalid_value'],
    ['offset=3', 'offset', 'unknown_parameter'],
    ['fields=id', 'fields', 'unknown_parameter'],
    ['limit=3&limit=4', 'limit', 'repeated_parameter'],
    ['sort=', 'sort', 'empty_value'],
    ['rating=9', 'rating', 'too_big'],
    ['since=2024-02-30', 'since', 'invalid_format'],
    ['mentions_service=chimneys', 'mentions_service', 'unknown_service'],
  ])('%s: one issue naming %s (%s) and what is allowed', (qs, path, code) => {
    const issues = issuesOf(qs);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path, code });
  });

  it('says what is allowed in words', () => {
    expect(issuesOf('limit=50')[0]?.message).toBe('limit must be a whole number from 1 to 20; got "50".');
    expect(issuesOf('sort=top')[0]?.message).toBe('sort must be newest or best; got "top".');
    expect(issuesOf('limt=3')[0]?.message).toContain('Did you mean "limit"?');
    expect(issuesOf('mentions_service=chimneys')[0]?.message).toContain('roof-repair');
  });

  it('reports every wrong parameter at once', () => {
    expect(issuesOf('limit=0&sort=x&rating=7&color=red').map((issue) => issue.path).sort()).toEqual(['color', 'limit', 'rating', 'sort']);
  });

  it('gives the same key to the same view however it is spelled', () => {
    expect(widgetQueryKey(parse('limit=05&mentions_service=GUTTERS'))).toBe(widgetQueryKey(parse('mentions_service=gutters&limit=5')));
    expect(widgetQueryKey(parse('sort=best'))).not.toBe(widgetQueryKey(parse('sort=newest')));
  });
});

describe('widgetSelection', () => {
  it.each(['', 'limit=3', 'min_rating=4', 'mentions_technician=zoe&limit=20', 'query=roof&limit=20', 'since=2024-01-01&until=2024-06-30&limit=20', 'rating=2'])(
    'newest: exactly the search for %s',
    (qs) => {
      const { reviews, total } = widgetSelection(catalog, parse(qs));
      const params = new URLSearchParams(qs);
      if (!params.has('limit')) params.set('limit', '5');
      const expected = searched(params.toString());
      expect(reviews.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      expect(total).toBe(searchReviews(catalog, parse(qs).search).counts.total);
    },
  );

  it.each(['limit=20', 'limit=3', 'min_rating=3.5&limit=20', 'rating=4&limit=20', 'query=roof&limit=4'])('best: five stars first, then four..., each the search for that rating (%s)', (qs) => {
    const { reviews, total } = widgetSelection(catalog, parse(`${qs}&sort=best`));
    const params = new URLSearchParams(qs);
    const limit = Number(params.get('limit'));
    const expected: Review[] = [];
    let expectedTotal = 0;
    for (const rating of [5, 4, 3, 2, 1]) {
      const filters = new URLSearchParams(params);
      if (filters.has('rating') && Number(filters.get('rating')) !== rating) continue;
      filters.set('rating', String(rating));
      filters.set('limit', '100');
      const parsed = parseSearchParams(catalog, filters);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      const result = searchReviews(catalog, parsed.value);
      expectedTotal += result.counts.total;
      expected.push(...(result.response.reviews as Review[]));
    }
    expect(reviews.map((r) => r.id)).toEqual(expected.slice(0, limit).map((r) => r.id));
    expect(total).toBe(expectedTotal);
    const ratings = reviews.map((r) => r.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });
});

describe('widgetDocument', () => {
  it('holds the rating, the count, each review page and the browser link for the same filters, in its schema', () => {
    const doc = widgetDocument(catalog, parse('mentions_service=gutters&limit=2'), urls);
    expect(widgetResponseSchema.parse(doc)).toEqual(doc);
    expect(doc.rating_value).toBe(dataset.aggregate_rating.rating_value);
    expect(doc.review_count).toBe(dataset.aggregate_rating.review_count);
    expect(doc.reviews_url).toBe('https://reviews.example/reviews?mentions_service=gutters');
    for (const review of doc.reviews) expect(review.url).toBe(`https://reviews.example/reviews/${review.id}`);
    const first = dataset.reviews.find((r) => r.id === doc.reviews[0]?.id) as Review;
    expect(doc.reviews[0]).toEqual({
      id: first.id,
      url: urls.reviewPage(first.id),
      rating: first.rating,
      date: first.date,
      title: first.title,
      excerpt: excerptOf(first.text),
      author: first.author.name,
      has_response: first.response !== null,
    });
  });
});

describe('excerptOf', () => {
  it('keeps a short text whole, on one line', () => {
    expect(excerptOf('Fixed the\nleak.  Thanks!')).toBe('Fixed the leak. Thanks!');
  });

  it('cuts a long text at a word, within the limit, with an ellipsis', () => {
    const text = 'word '.repeat(100);
    const cut = excerptOf(text, 32);
    expect(cut).toBe('word word word word word word…');
    expect([...cut].length).toBeLessThanOrEqual(33);
  });

  it('never splits a character made of two code units', () => {
    expect(excerptOf('🏠'.repeat(40), 10)).toBe(`${'🏠'.repeat(10)}…`);
  });
});
