/**
 * Issue 14 item 3 across a review, as clients see it: the problem a well-rated review opens with
 * is not published as the business's bad workmanship; the same text in a low-rated review is.
 * Built from a copy of the small fixture and read over HTTP from the built server.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewsDatasetSchema } from '../../src/domain/schemas/datasets.ts';
import { insightsSchema, type Insights } from '../../src/domain/schemas/insights.ts';
import type { Review } from '../../src/domain/schemas/review.ts';
import { buildContent, copyFixture } from '../support/content-variant.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const OPENING = 'Drip by the fireplace started during the first cold front.';
const BODY = `${OPENING} They found a cracked chimney flashing and fixed it the same day. Great crew.\n`;

function writeReview(contentDir: string, id: string, rating: number): void {
  writeFileSync(
    path.join(contentDir, 'reviews', `${id}.md`),
    `---\nauthor: Nora Q.\nrating: ${rating}\ndate: 2024-06-01\nverified: true\nverification: invoice\n---\n${BODY}`,
  );
}

let server: RunningServer;
let reviews: Review[];
let insights: Insights;

beforeAll(async () => {
  const contentDir = copyFixture('small', 'opening-problem');
  writeReview(contentDir, 'opening-five', 5);
  writeReview(contentDir, 'opening-two', 2);
  server = await startServer(await buildContent(contentDir, 'opening-problem'));
  const get = async (p: string) => (await rawRequest(server.url + p)).text;
  reviews = reviewsDatasetSchema.parse(JSON.parse(await get('/reviews.json'))).reviews;
  insights = insightsSchema.parse(JSON.parse(await get('/insights.json')));
});
afterAll(() => server?.stop());

const openingNegatives = (id: string) =>
  (reviews.find((r) => r.id === id)?.aspects ?? []).filter((a) => a.sentiment === 'negative' && a.excerpt === OPENING).map((a) => a.aspect);

describe('the problem a customer called about, in the published data', () => {
  it('is negative workmanship in a two-star review (read alone, it is a leak)', () => {
    expect(openingNegatives('opening-two')).toContain('workmanship');
  });

  it('is not a negative aspect of the business in a five-star review that goes on to praise', () => {
    expect(openingNegatives('opening-five')).toEqual([]);
    // The rest of the review is published as the analyzer reads it.
    expect(reviews.find((r) => r.id === 'opening-five')?.aspects.some((a) => a.sentiment === 'positive')).toBe(true);
  });

  it('is what insights.json counts: its workmanship tally is the published labels', () => {
    const labels = reviews.flatMap((r) => r.aspects).filter((a) => a.aspect === 'workmanship');
    expect(insights.aspects.find((a) => a.aspect === 'workmanship')?.negative).toBe(labels.filter((a) => a.sentiment === 'negative').length);
  });
});
