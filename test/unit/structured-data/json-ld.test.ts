/** The pages' JSON-LD, as a JSON-LD processor reads it: the business's type, its rating, the reviews, and text that cannot end the script. */
import { describe, expect, it } from 'vitest';
import { businessJsonLd, jsonLdScriptText } from '../../../src/domain/structured-data/json-ld.ts';
import { businessTypeOf } from '../../../src/domain/structured-data/business-types.ts';
import { validateContent } from '../../../src/domain/content/validate.ts';
import { siteFrom } from '../../support/site.ts';
import { expandJsonLd, S, value, values } from '../../support/json-ld.ts';

const site = siteFrom([
  { id: 'a', date: '2024-03-01', rating: 5, title: 'Great </script><script>alert(1)</script>', text: 'Line one.\n\nLine two & more\u2028.' },
  { id: 'b', date: '2024-04-01', rating: 2 },
]);

describe('businessJsonLd', () => {
  it('is the business with its rating and the reviews given, as schema.org terms', async () => {
    const [node, ...others] = await expandJsonLd(businessJsonLd(site));
    expect(others).toEqual([]);
    const business = node as Record<string, unknown>;
    expect(business['@type']).toEqual([S('LocalBusiness')]);
    expect(business['@id']).toBe('https://site.example/#business');
    expect(value(business, 'name')).toBe('Test Roofing');
    expect(value(business, 'url')).toBe('https://test.example');
    const rating = value(business, 'aggregateRating') as Record<string, unknown>;
    expect([value(rating, 'ratingValue'), value(rating, 'reviewCount'), value(rating, 'bestRating'), value(rating, 'worstRating')]).toEqual([
      site.aggregate.rating_value,
      2,
      5,
      1,
    ]);
    const reviews = values(business, 'review');
    expect(reviews.map((review) => review['@id'])).toEqual(site.reviews.map((review) => review.url));
    for (const [review, published] of reviews.map((review, i) => [review, site.reviews[i]] as const)) {
      expect(review['@type']).toEqual([S('Review')]);
      expect(value(review, 'reviewBody')).toBe(published?.text);
      expect(value(review, 'datePublished')).toBe(published?.date);
      expect(value(value(review, 'author') as Record<string, unknown>, 'name')).toBe(published?.author.name);
      expect(value(value(review, 'reviewRating') as Record<string, unknown>, 'ratingValue')).toBe(published?.rating);
    }
  });

  it('names the type business.json gives, and has no rating or reviews for a business with none', async () => {
    const [node] = await expandJsonLd(businessJsonLd({ ...site, business: { ...site.business, schema_type: 'RoofingContractor' }, aggregate: { ...site.aggregate, rating_value: null, review_count: 0 }, reviews: [] }));
    expect(node?.['@type']).toEqual([S('RoofingContractor')]);
    expect(node?.[S('aggregateRating')]).toBeUndefined();
    expect(node?.[S('review')]).toBeUndefined();
  });

  it('takes only the schema.org types it lists; the content check names them', () => {
    expect(businessTypeOf({ schema_type: 'Plumber' })).toBe('Plumber');
    expect(businessTypeOf({ schema_type: 'Thing' })).toBe('LocalBusiness');
    expect(businessTypeOf({})).toBe('LocalBusiness');
    const checked = validateContent({ business: { path: 'business.json', text: JSON.stringify({ name: 'X', url: 'https://x.example', schema_type: 'Roofer' }) }, reviews: [] });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(JSON.stringify(checked.problems)).toMatch(/schema_type.*RoofingContractor/);
  });
});

describe('jsonLdScriptText', () => {
  it('holds no character that could end or change a script, and reads back as the same JSON', () => {
    const data = businessJsonLd(site);
    const text = jsonLdScriptText(data);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(data);
    expect(text).toContain('Great \\u003c/script\\u003e');
  });
});
