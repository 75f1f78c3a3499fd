import { fromByteString } from '../../../src/domain/byte-string.ts';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { parseSinceRequest, reviewsSince } from '../../../src/domain/catalog/since.ts';
import { serializeJson } from '../../../src/domain/datasets.ts';
import { fixtureDataset } from './support.ts';

const { dataset, bytes } = fixtureDataset('search-basic');
const catalog = buildReviewCatalog(dataset);
const ids = (since: string) => reviewsSince(catalog, since).response.reviews.map((r) => r.id);

describe('reviewsSince', () => {
  it('lists the reviews on or after the day, oldest first with ties by id', () => {
    expect(ids('2023-01-10')).toEqual(['r02', 'r03', 'r04', 'r05', 'r06', 'r07', 'r08', 'r10', 'r11', 'r12']);
    expect(ids('2024-05-20')).toEqual(['r11', 'r12']);
    expect(ids('2024-05-21')).toEqual([]);
    expect(ids('1999-01-01')).toHaveLength(11);
  });

  it('gives the body as JSON text equal to the response object, reviews byte for byte as published', () => {
    const listing = reviewsSince(catalog, '2024-02-29');
    expect(listing.response).toMatchObject({ since: '2024-02-29', count: 6 });
    expect(fromByteString(listing.json())).toBe(serializeJson(listing.response));
    for (const review of listing.response.reviews) expect(bytes).toContain(JSON.stringify(review));
  });

  it('Last-Modified is the newest review or response date in the listing, else the dataset', () => {
    // r05 (2023-07-01) was answered on 2024-09-01, after every review date.
    expect(reviewsSince(catalog, '2023-07-01').lastModified).toBe('2024-09-01');
    expect(reviewsSince(catalog, '2023-07-02').lastModified).toBe('2024-05-20');
    expect(reviewsSince(catalog, '2030-01-01').lastModified).toBe(dataset.updated);
    expect(dataset.updated).toBe('2024-09-01');
  });

  it('pages for the MCP tool, counting them all in total', () => {
    const page = reviewsSince(catalog, '2023-01-10', { offset: 2, limit: 3 });
    expect(page.total).toBe(10);
    expect(page.response.reviews.map((r) => r.id)).toEqual(['r04', 'r05', 'r06']);
    expect(fromByteString(page.json())).toBe(serializeJson(page.response));
    expect(page.lastModified).toBe('2024-09-01');
  });
});

describe('the ETag of a listing', () => {
  const sha = (text: string) => `"${createHash('sha256').update(text).digest('hex').slice(0, 32)}"`;

  it('is strong, the same for the same bytes on another catalog, different for other bytes', () => {
    const again = buildReviewCatalog(fixtureDataset('search-basic').dataset);
    expect(reviewsSince(catalog, '2024-01-01').etag()).toMatch(/^"[0-9a-f]{32}"$/);
    expect(reviewsSince(again, '2024-01-01').etag()).toBe(reviewsSince(catalog, '2024-01-01').etag());
    // Same reviews, other envelope.
    expect(reviewsSince(catalog, '2024-05-19').etag()).not.toBe(reviewsSince(catalog, '2024-05-20').etag());
    expect(reviewsSince(catalog, '2030-01-01').etag()).not.toBe(reviewsSince(catalog, '2031-01-01').etag());
    // A page in the middle is hashed as sent.
    const page = reviewsSince(catalog, '2023-01-10', { offset: 2, limit: 3 });
    expect(page.etag()).toBe(sha(fromByteString(page.json())));
  });

  it('changes when a review in the listing changes, and only then', () => {
    const edited = structuredClone(dataset);
    const r04 = edited.reviews.find((r) => r.id === 'r04');
    if (!r04) throw new Error('fixture lacks r04');
    r04.text += ' Edited.';
    const changed = buildReviewCatalog(edited);
    expect(reviewsSince(changed, '2023-06-30').etag()).not.toBe(reviewsSince(catalog, '2023-06-30').etag());
    expect(reviewsSince(changed, '2023-07-01').etag()).toBe(reviewsSince(catalog, '2023-07-01').etag());
  });
});

describe('parseSinceRequest', () => {
  it('takes a real date and, optionally, fields', () => {
    expect(parseSinceRequest('2024-02-29', new URLSearchParams())).toEqual({ ok: true, value: { date: '2024-02-29', fields: undefined } });
    expect(parseSinceRequest('2024-02-29', new URLSearchParams('fields=text,rating'))).toEqual({
      ok: true,
      value: { date: '2024-02-29', fields: ['id', 'rating', 'text'] },
    });
    const unknown = parseSinceRequest('2024-02-29', new URLSearchParams('fields=rating,colour'));
    expect(unknown).toMatchObject({ ok: false, issues: [{ path: 'fields', code: 'unknown_field' }] });
    expect(unknown.ok ? '' : unknown.issues[0]?.message).toContain('(id, url, rating, date, title, text, author');
  });

  it.each(['2023-02-29', '2024-13-01', '2024-1-1', '20240101', 'today', '', '2024-01-01 ', '２０２４-01-01'])('refuses %j naming the date', (date) => {
    const parsed = parseSinceRequest(date, new URLSearchParams());
    expect(parsed).toMatchObject({ ok: false, issues: [{ path: 'date', code: 'invalid_format' }] });
    expect(parsed.ok ? '' : parsed.issues[0]?.message).toMatch(/^date must be a real calendar date written YYYY-MM-DD/);
  });

  it('refuses other query parameters, naming the one it takes', () => {
    const parsed = parseSinceRequest('2024-01-01', new URLSearchParams('limit=5'));
    expect(parsed).toMatchObject({ ok: false, issues: [{ path: 'limit', code: 'unknown_parameter' }] });
    expect(parsed.ok ? '' : parsed.issues[0]?.message).toContain('the parameters are fields');
  });
});

describe('the catalog', () => {
  it('finds a published review by id, and no other', () => {
    expect(catalog.review('r04')).toEqual(dataset.reviews.find((r) => r.id === 'r04'));
    expect(catalog.review('r09')).toBeUndefined(); // unverified: never published
    expect(catalog.review('nope')).toBeUndefined();
  });
});
