import { describe, expect, it } from 'vitest';
import { applyOwnerCorrections, type AnalyzedAspect } from '../../../src/domain/insights/owner-corrections.ts';
import { validateContent } from '../../../src/domain/content/validate.ts';

const analyzed: AnalyzedAspect[] = [
  { aspect: 'workmanship', sentiment: 'negative', score: -0.6, excerpt: 'A drip started before they came.', confidence: 0.55 },
  { aspect: 'cleanup', sentiment: 'positive', score: 0.7, excerpt: 'Spotless yard.', confidence: 0.7 },
  { aspect: 'price', sentiment: 'neutral', score: 0.1, excerpt: 'They were affordable.', confidence: 0.24 },
  { aspect: 'workmanship', sentiment: 'positive', score: 0.8, excerpt: 'The new roof is perfect.', confidence: 0.8 },
];

describe('owner corrections of aspect labels', () => {
  it('keeps the analyzer labels, marked as such, when the owner corrects nothing', () => {
    expect(applyOwnerCorrections(analyzed, undefined)).toEqual([
      { aspect: 'workmanship', sentiment: 'negative', score: -0.6, excerpt: 'A drip started before they came.', source: 'analyzer', confidence: 0.55 },
      { aspect: 'cleanup', sentiment: 'positive', score: 0.7, excerpt: 'Spotless yard.', source: 'analyzer', confidence: 0.7 },
      { aspect: 'price', sentiment: 'neutral', score: 0.1, excerpt: 'They were affordable.', source: 'analyzer', confidence: 0.24 },
      { aspect: 'workmanship', sentiment: 'positive', score: 0.8, excerpt: 'The new roof is perfect.', source: 'analyzer', confidence: 0.8 },
    ]);
  });

  it("replaces every analyzer label of a corrected aspect with one owner label, and drops aspects set to none", () => {
    const labels = applyOwnerCorrections(analyzed, { workmanship: 'positive', price: 'positive', cleanup: 'none', warranty: 'negative' });
    expect(labels).toEqual([
      // The owner agrees with the analyzer on one workmanship sentence: that one is quoted.
      { aspect: 'workmanship', sentiment: 'positive', score: 1, excerpt: 'The new roof is perfect.', source: 'owner', confidence: 1 },
      // The analyzer read the price sentence as neutral: quoting it as praise could misquote, so no excerpt.
      { aspect: 'price', sentiment: 'positive', score: 1, excerpt: null, source: 'owner', confidence: 1 },
      { aspect: 'warranty', sentiment: 'negative', score: -1, excerpt: null, source: 'owner', confidence: 1 },
    ]);
  });

  it('leaves the aspects the owner did not list to the analyzer', () => {
    const labels = applyOwnerCorrections(analyzed, { price: 'negative' });
    expect(labels.map((l) => [l.aspect, l.sentiment, l.source])).toEqual([
      ['workmanship', 'negative', 'analyzer'],
      ['cleanup', 'positive', 'analyzer'],
      ['workmanship', 'positive', 'analyzer'],
      ['price', 'negative', 'owner'],
    ]);
  });
});

describe('the aspects: field of a review', () => {
  const business = { path: 'business.json', text: JSON.stringify({ name: 'T', url: 'https://t.example' }) };
  const review = (extra: string) => ({
    path: 'reviews/r1.md',
    text: `---\nauthor: A\nrating: 5\ndate: 2024-03-12\nverified: true\nverification: invoice\n${extra}\n---\nGood work.\n`,
  });

  it('is read as a map of aspect to sentiment', () => {
    const result = validateContent({ business, reviews: [review('aspects:\n  workmanship: positive\n  cleanup: none')] });
    expect(result.ok && result.content.reviews[0]?.aspects).toEqual({ workmanship: 'positive', cleanup: 'none' });
  });

  it('reports unknown aspects and sentiments with the allowed values', () => {
    const result = validateContent({ business, reviews: [review('aspects:\n  workmanshp: positive\n  cleanup: great\n  price:')] });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      {
        file: 'reviews/r1.md',
        field: 'aspects.workmanshp',
        message:
          'unknown aspect "workmanshp"; the aspects are workmanship, timeliness, communication, price, cleanup, professionalism, estimate, insurance, warranty, materials',
      },
      { file: 'reviews/r1.md', field: 'aspects.cleanup', message: '"great" is not allowed; write positive, neutral, negative, none (none: the review does not talk about it)' },
      { file: 'reviews/r1.md', field: 'aspects.price', message: 'null is not allowed; write positive, neutral, negative, none (none: the review does not talk about it)' },
    ]);
  });

  it('reports a list where a map is expected', () => {
    const result = validateContent({ business, reviews: [review('aspects: [workmanship, positive]')] });
    expect(!result.ok && result.problems).toEqual([
      { file: 'reviews/r1.md', field: 'aspects', message: 'must be lines of "aspect: sentiment" under aspects:, e.g. "workmanship: positive"' },
    ]);
  });
});
