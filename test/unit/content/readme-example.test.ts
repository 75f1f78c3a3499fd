/** The review example of the README's "Adding a review" is what a newcomer copies: it must stay valid. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateContent } from '../../../src/domain/content/validate.ts';
import { analyzeReviewAspects } from '../../../src/domain/insights/review-aspects.ts';
import { toPublishedReviews } from '../../../src/domain/review-record.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

function reviewExample(): string {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Adding a review'));
  const block = section && /```markdown\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no markdown example under "## Adding a review"');
  return block;
}

describe('README "Adding a review" example', () => {
  it('is a valid review of the sample business, and its aspect corrections reach the published record', () => {
    const business = { path: 'business.json', text: readFileSync(path.join(root, 'content/business.json'), 'utf8') };
    const result = validateContent({ business, reviews: [{ path: 'reviews/2024-03-12-jordan-m.md', text: reviewExample() }] });
    expect(result.ok ? [] : result.problems).toEqual([]);
    if (!result.ok) return;
    const [review] = toPublishedReviews(result.content.business, result.content.reviews, analyzeReviewAspects(null));
    const owner = review?.aspects.filter((a) => a.source === 'owner').map((a) => [a.aspect, a.sentiment]);
    expect(owner).toEqual([['workmanship', 'positive']]);
    expect(review?.aspects.some((a) => a.aspect === 'price')).toBe(false);
  });
});
