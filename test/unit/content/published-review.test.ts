/**
 * A published review as the build keeps it (src/domain/published-review.ts): its line of
 * /reviews.json, made from the kept JSON, is byte for byte the one the site's review
 * object gives, for every review of a fixture and for odd ids and addresses.
 */
import { describe, expect, it } from 'vitest';
import { publishedReview, publishedReviewOpening, type PublishedReview } from '../../../src/domain/published-review.ts';
import type { ReviewRecord } from '../../../src/domain/schemas/review.ts';
import { fixtureDataset } from '../catalog/support.ts';

const smallReviews = () => fixtureDataset('small').dataset.reviews;

/** The review's line of /reviews.json as the build writes it (src/build/reviews-document.ts): the opening, then its JSON but the brace. */
const publishedReviewJson = (review: PublishedReview, url: string) => `${publishedReviewOpening(review, url)}${review.json.slice(1)}`;

describe('publishedReviewOpening', () => {
  it("gives the bytes of JSON.stringify of the site's review, for every review of the fixture", () => {
    const reviews = smallReviews();
    expect(reviews.length).toBeGreaterThan(2);
    expect(reviews.some((review) => review.response !== null)).toBe(true);
    for (const review of reviews) {
      const { url, ...record } = review;
      expect(publishedReviewJson(publishedReview(record as ReviewRecord), url)).toBe(JSON.stringify(review));
    }
  });

  it('escapes an id or address that JSON must escape, and keeps what the review is sorted and dated by', () => {
    const [review] = smallReviews();
    const { url: _, ...record } = review as NonNullable<typeof review>;
    const odd = { ...record, id: 'a"b\\c\u2028' } as ReviewRecord;
    const url = 'https://x.test/reviews/a"b\\c\u2028';
    const kept = publishedReview(odd);
    expect(JSON.parse(publishedReviewJson(kept, url))).toEqual({ ...record, id: odd.id, url });
    expect(Object.keys(JSON.parse(publishedReviewJson(kept, url)) as object).slice(0, 2)).toEqual(['id', 'url']);
    expect(kept).toMatchObject({ id: odd.id, date: record.date, rating: record.rating, response: record.response && { date: record.response.date } });
  });
});
