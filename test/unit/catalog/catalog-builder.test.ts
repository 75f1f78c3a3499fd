/**
 * The catalog made from the lines of /reviews.json, and made again with the catalog
 * of a previous build lending what did not change: both must be the catalog of the
 * new build, whatever the previous one held.
 */
import { describe, expect, it } from 'vitest';
import { generateContent } from '../../../bench/generate-content.ts';
import { toByteString, type ByteString } from '../../../src/domain/byte-string.ts';
import { buildReviewCatalog, catalogSteps, runSteps, stringLine } from '../../../src/domain/catalog/catalog-builder.ts';
import type { ReviewCatalog } from '../../../src/domain/catalog/review-catalog.ts';
import { searchReviews } from '../../../src/domain/catalog/search.ts';
import { parseSearchArguments } from '../../../src/domain/catalog/search-query.ts';
import { reviewsSince } from '../../../src/domain/catalog/since.ts';
import { parseReviewsDatasetHead, REVIEW_LINE_END, REVIEWS_DATASET_END, serializeReviewsDataset } from '../../../src/domain/datasets.ts';
import type { ReviewsDataset } from '../../../src/domain/schemas/datasets.ts';
import type { Review } from '../../../src/domain/schemas/review.ts';
import { datasetFromFiles } from './support.ts';

const { dataset, bytes } = datasetFromFiles(generateContent(400, 7));

/** The review lines of a /reviews.json, as the server reads them. */
function reviewLines(text: string): ByteString[] {
  const lines = text.split('\n');
  expect(parseReviewsDatasetHead(lines[0] as string)).toBeDefined();
  const end = lines.indexOf(REVIEWS_DATASET_END);
  return lines.slice(1, end).map((line, i, all) => toByteString(i < all.length - 1 ? line.slice(0, -REVIEW_LINE_END.length) : line));
}

function catalogOfLines(reviews: readonly Review[], previous?: ReviewCatalog): ReviewCatalog {
  const { reviews: _, ...head } = dataset;
  return runSteps(catalogSteps(head, reviewLines(serializeReviewsDataset({ ...dataset, reviews: [...reviews] })).map(stringLine), previous));
}

/** Everything a request can read of a catalog, in a form to compare. */
function observable(catalog: ReviewCatalog) {
  const { index } = catalog;
  const postings = new Map(index.text.words.map((word, i) => [word, Array.from(index.text.postings[i] as Int32Array)]));
  const sets = (map: ReadonlyMap<string, { list: Int32Array }>) => [...map].map(([key, set]) => [key, Array.from(set.list)]).sort();
  return {
    json: catalog.entries.map((entry) => entry.json),
    entries: catalog.entries,
    dates: index.dates,
    ratings: index.byRating.map((set) => Array.from(set.list)),
    atLeast: index.atLeastRating.map((set) => Array.from(set.list)),
    technicians: sets(index.byTechnician),
    services: sets(index.byService),
    texts: index.text.texts,
    postings: [...postings].sort(([a], [b]) => (a < b ? -1 : 1)),
    oldestFirst: Array.from(index.oldestFirst),
    digestFrom: index.digestFrom,
    changedFrom: index.changedFrom,
  };
}

describe('/reviews.json a review per line', () => {
  it('is the dataset, with each review on a line of its own, byte for byte its JSON', () => {
    expect(JSON.parse(bytes)).toEqual(dataset);
    const lines = reviewLines(bytes);
    expect(lines).toHaveLength(dataset.reviews.length);
    expect(lines).toEqual(dataset.reviews.map((review) => toByteString(JSON.stringify(review))));
    expect(bytes.endsWith('\n]}\n')).toBe(true);
  });

  it('has an empty list of reviews when there are none', () => {
    const empty = serializeReviewsDataset({ ...dataset, reviews: [] });
    expect(JSON.parse(empty)).toEqual({ ...dataset, reviews: [] });
    expect(empty.split('\n')).toHaveLength(3);
  });

  it('gives the same catalog read line by line as from the parsed dataset', () => {
    expect(observable(catalogOfLines(dataset.reviews))).toEqual(observable(buildReviewCatalog(dataset)));
  });
});

describe('a catalog made with the previous build\'s', () => {
  const full = buildReviewCatalog(dataset);
  const reviews = dataset.reviews;
  const edited = (review: Review): Review => ({ ...review, text: `${review.text} Edited afterwards: zyzzyva.`, rating: review.rating === 5 ? 4 : 5 });

  const cases: [string, Review[]][] = [
    ['one review fewer (a review was added)', reviews.filter((_, i) => i !== 3)],
    ['the newest review missing', reviews.slice(1)],
    ['one more review (a review was removed)', [...reviews, { ...(reviews[10] as Review), id: 'zz-removed-since', date: '2001-01-01' }]],
    ['a review edited', reviews.map((review, i) => (i === 50 ? edited(review) : review))],
    ['nothing in common', reviews.slice(0, 20).map(edited)],
    ['no reviews at all', []],
  ];
  for (const [name, before] of cases) {
    it(`equals the catalog made from nothing, the previous one having ${name}`, () => {
      const previous = catalogOfLines(before);
      expect(observable(catalogOfLines(reviews, previous))).toEqual(observable(full));
    });
  }

  it('keeps the entries of the reviews whose bytes did not change, and makes new ones for the others', () => {
    const before = reviews.map((review, i) => (i === 50 ? edited(review) : review)).filter((_, i) => i !== 3);
    const previous = catalogOfLines(before);
    const next = catalogOfLines(reviews, previous);
    const reused = next.entries.filter((entry) => previous.entries.includes(entry));
    expect(reused).toHaveLength(reviews.length - 2);
    expect(previous.entries).not.toContain(next.entries[3]);
    expect(previous.entries).not.toContain(next.entries[50]);
  });

  it('answers searches and syncs as the catalog made from nothing', () => {
    const previous = catalogOfLines(reviews.filter((_, i) => i % 7 !== 0));
    const next = catalogOfLines(reviews, previous);
    const word = (reviews[0] as Review).text.split(' ')[2] as string;
    for (const args of [{}, { query: word }, { query: `${word} the` }, { min_rating: 4, limit: 50 }, { mentions_technician: 'zoe' }]) {
      const parsedFull = parseSearchArguments(full, args);
      const parsedNext = parseSearchArguments(next, args);
      if (!parsedFull.ok || !parsedNext.ok) throw new Error('arguments refused');
      expect(searchReviews(next, parsedNext.value).json().join('')).toBe(searchReviews(full, parsedFull.value).json().join(''));
    }
    const since = (reviews[200] as Review).date;
    expect(reviewsSince(next, since).json()).toBe(reviewsSince(full, since).json());
    expect(reviewsSince(next, since).etag()).toBe(reviewsSince(full, since).etag());
  });

  it('sorts lines that are not newest first, rather than misreading them', () => {
    const shuffled = [...reviews].reverse();
    const { reviews: _, ...head } = dataset as ReviewsDataset;
    const lines = shuffled.map((review) => stringLine(toByteString(JSON.stringify(review))));
    expect(observable(runSteps(catalogSteps(head, lines)))).toEqual(observable(full));
  });
});
