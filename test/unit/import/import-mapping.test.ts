import { describe, expect, it } from 'vitest';
import { validateContent } from '../../../src/domain/content/validate.ts';
import { readGoogleReviews } from '../../../src/domain/import/google-reviews.ts';
import { authorName, importedReviewId, type ImportedReview } from '../../../src/domain/import/imported-review.ts';
import { mergeReviewFile, newReviewFile, verifyReviewFile } from '../../../src/domain/import/review-file.ts';
import { columnLetter, readSheetReviews } from '../../../src/domain/import/sheet-reviews.ts';

const business = { path: 'business.json', text: JSON.stringify({ name: 'T', url: 'https://t.example' }) };

describe('authorName', () => {
  it.each([
    ['Tomás Villarreal', 'first-name-initial', 'Tomás V.'],
    ['  José   María  Álvarez ', 'first-name-initial', 'José Á.'],
    ['Chloé Dubois-Martin', 'first-name-initial', 'Chloé D.'],
    ['Madonna', 'first-name-initial', 'Madonna'],
    ['jan de vries', 'first-name-initial', 'jan V.'],
    ['Tomás Villarreal', 'full', 'Tomás Villarreal'],
    ['Tomás Villarreal', undefined, 'Tomás V.'],
  ] as const)('%s (%s) signs %s', (name, style, signed) => {
    expect(authorName(name, style)).toBe(signed);
  });
});

describe('importedReviewId', () => {
  it('depends on the source and its id only, and is a valid review id', () => {
    const a = importedReviewId({ source: 'google', sourceId: 'AbC_-x' });
    expect(a).toMatch(/^google-[0-9a-f]{12}$/);
    expect(importedReviewId({ source: 'google', sourceId: 'AbC_-x' })).toBe(a);
    expect(importedReviewId({ source: 'google', sourceId: 'abc_-x' })).not.toBe(a);
    expect(importedReviewId({ source: 'sheet', sourceId: 'AbC_-x' })).not.toBe(a);
  });
});

describe('readGoogleReviews', () => {
  const review = (stars: string, extra: object = {}) => ({ reviewId: `id-${stars}`, reviewer: { displayName: 'A B' }, starRating: stars, comment: 'ok', createTime: '2024-01-02T00:30:00Z', ...extra });

  it('maps every star rating, and reads the id from `name` when `reviewId` is absent (Takeout)', () => {
    const stars = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];
    const read = readGoogleReviews({ reviews: [...stars.map((s) => review(s)), { ...review('FIVE'), reviewId: undefined, name: 'accounts/1/locations/2/reviews/XyZ' }] });
    expect(read.reviews.map((r) => [r.rating, r.sourceId])).toEqual([[1, 'id-ONE'], [2, 'id-TWO'], [3, 'id-THREE'], [4, 'id-FOUR'], [5, 'id-FIVE'], [5, 'XyZ']]);
    expect(read.problems).toEqual([]);
  });

  it('dates a review on the business’s day, and never answers before the review', () => {
    const [late] = readGoogleReviews([review('FIVE', { reviewReply: { comment: 'Thanks', updateTime: '2024-01-01T00:00:00Z' } })], 'America/Chicago').reviews;
    expect(late?.date).toBe('2024-01-01');
    expect(late?.response).toEqual({ date: '2024-01-01', text: 'Thanks' });
    expect(readGoogleReviews([review('FIVE')]).reviews[0]?.date).toBe('2024-01-02');
  });

  it('skips a review without text, and reports one without an id, stars or a time', () => {
    const read = readGoogleReviews({ reviews: [review('FIVE', { comment: '  ' }), { starRating: 'FIVE' }, review('ZERO'), review('ONE', { createTime: 'yesterday' })] });
    expect(read.skipped.map((s) => s.where)).toEqual(['review 1 (id id-FIVE)']);
    expect(read.problems.map((p) => `${p.where}: ${p.message}`)).toEqual([
      'review 2: has no reviewId (nor a name ending in /reviews/<id>)',
      'review 3 (id id-ZERO): starRating "ZERO" is not one of ONE, TWO, THREE, FOUR, FIVE',
      'review 4 (id id-ONE): createTime "yesterday" is not an RFC 3339 timestamp',
    ]);
    expect(readGoogleReviews({ data: [] }).problems[0]?.message).toMatch(/^is not Google reviews JSON/);
  });
});

describe('readSheetReviews', () => {
  it('finds columns by header, by mapping and by letter, and reports a mapping to no column', () => {
    const rows = [['Who', 'Score', 'When', 'Said'], ['Ann Lee', '5', '2024-01-01', 'Good']];
    const mapped = readSheetReviews(rows, { header: true, columns: { author: 'Who', rating: 'B', date: 'When', text: 'Said' } });
    expect(mapped.reviews).toMatchObject([{ author: 'Ann Lee', rating: 5, date: '2024-01-01', text: 'Good', sourceId: '2024-01-01\nAnn Lee' }]);
    const bad = readSheetReviews(rows, { header: true, columns: { author: 'Name', rating: 'B', date: 'When', text: 'Said' } });
    expect(bad.problems[0]).toEqual({ where: '--column author=Name', message: 'no such column; the header has "Who", "Score", "When", "Said"' });
    const bare = readSheetReviews(rows.slice(1), { header: false, columns: { author: 'A', rating: 'B', date: 'C', text: 'D' } });
    expect(bare.reviews).toHaveLength(1);
  });

  it('gives spreadsheet column letters', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});

describe('review files', () => {
  const imported: ImportedReview = { source: 'google', sourceId: 'x', author: 'Ann L.', rating: 4, date: '2024-01-01', text: 'Fine: yes.', collectedAt: 'google' };

  it('writes a file that the content check accepts, unverified', () => {
    const text = newReviewFile(imported);
    expect(text).toBe('---\nauthor: Ann L.\nrating: 4\ndate: 2024-01-01\nverified: false\nverification: pending\nsource: google\n---\nFine: yes.\n');
    expect(validateContent({ business, reviews: [{ path: 'reviews/a.md', text }] }).ok).toBe(true);
  });

  it('merges a change into an earlier file, keeping the owner’s fields and comments', () => {
    const earlier = newReviewFile(imported).replace('source: google\n', 'source: google\ntitle: Mine # my title\naspects:\n  price: none\n');
    const merged = mergeReviewFile(earlier, { ...imported, response: { date: '2024-01-03', text: 'Thanks' } });
    expect(merged).toMatchObject({ ok: true, changed: ['response'] });
    if (!merged.ok) return;
    expect(merged.text).toContain('title: Mine # my title\naspects:\n  price: none\nresponse:\n  date: 2024-01-03\n  text: Thanks\n');
    expect(mergeReviewFile(newReviewFile(imported), imported)).toMatchObject({ ok: true, changed: [] });
  });

  it('verifies a file, changing only verified and verification', () => {
    const verified = verifyReviewFile(newReviewFile(imported), 'invoice');
    expect(verified).toMatchObject({ ok: true, changed: ['verified', 'verification'] });
    if (verified.ok) expect(verified.text).toBe(newReviewFile(imported).replace('verified: false\nverification: pending', 'verified: true\nverification: invoice'));
  });
});
