/**
 * Builds the review catalog from the review lines of /reviews.json, as a generator
 * that yields every few hundred reviews: run to its end at once
 * (`buildReviewCatalog`), or a slice at a time between requests by a server that
 * must keep answering while it loads the next build (src/server/builds/catalog-loader.ts).
 *
 * Given the catalog it replaces, it keeps what the two builds share: a review whose
 * bytes are the same keeps its entry (its JSON, folded text and fields, neither
 * parsed nor folded again) and its words' postings are carried over, renumbered,
 * instead of the text being cut into words again. A build that adds one review to
 * 100,000 so costs reading the lines and comparing them, not parsing them.
 */
import { hash } from 'node:crypto';
import { reviewUpdated } from '../aggregate.ts';
import { fromByteString, toByteString, type ByteString } from '../byte-string.ts';
import type { ReviewsDatasetHead } from '../datasets.ts';
import { maxDate } from '../dates.ts';
import { compareNewestFirst } from '../review-record.ts';
import type { ReviewsDataset } from '../schemas/datasets.ts';
import type { Review } from '../schemas/review.ts';
import { positionSet, type PositionSet } from './position-set.ts';
import { normalizeName, reviewCatalog, type CatalogEntry, type CatalogIndex, type ReviewCatalog } from './review-catalog.ts';
import { foldedReviewText, textIndexSteps } from './text-index.ts';

/** Reviews between two yields: about a millisecond of work when each must be parsed. */
const STEP = 256;

/** The entry of a review's published JSON. */
export function catalogEntry(json: ByteString): CatalogEntry {
  const review = JSON.parse(fromByteString(json)) as Review;
  return {
    json,
    digest: hash('sha256', json),
    id: review.id,
    date: review.date,
    rating: review.rating,
    updated: reviewUpdated(review),
    technicians: [...new Set(review.technicians.map((t) => t.id))],
    services: [...new Set(review.services.map((s) => s.id))],
    text: foldedReviewText(review.title, review.text),
  };
}

const ID_START = '{"id":"';

/**
 * Finds, in the previous catalog, the entry of a review whose bytes did not change.
 * Both catalogs list reviews newest first, so the next line is most often the
 * entry after the last one found: that is tried first, then the review's id.
 */
function previousEntries(previous: ReviewCatalog) {
  let next = 0;
  return (json: ByteString): { entry: CatalogEntry; position: number } | undefined => {
    let position: number | undefined = next;
    if ((previous.entries[position] as CatalogEntry | undefined)?.json !== json) {
      // Every review's JSON starts with its id (review-record.ts), which needs no escaping.
      if (!json.startsWith(ID_START)) return undefined;
      position = previous.positionOf(json.slice(ID_START.length, json.indexOf('"', ID_START.length)));
      if (position === undefined || (previous.entries[position] as CatalogEntry).json !== json) return undefined;
    }
    next = position + 1;
    return { entry: previous.entries[position] as CatalogEntry, position };
  };
}

function positionsByKey(entries: readonly CatalogEntry[], keys: (entry: CatalogEntry) => readonly string[]): Map<string, PositionSet> {
  const lists = new Map<string, number[]>();
  entries.forEach((entry, position) => {
    for (const key of keys(entry)) {
      const list = lists.get(key);
      if (list) list.push(position);
      else lists.set(key, [position]);
    }
  });
  return new Map([...lists].map(([key, list]) => [key, positionSet(Int32Array.from(list), entries.length)]));
}

/** Positions with exactly each rating, and with at least each, by rating (0 to 5). */
function ratingSets(entries: readonly CatalogEntry[]): { exactly: PositionSet[]; atLeast: PositionSet[] } {
  const exactly: number[][] = [[], [], [], [], [], []];
  entries.forEach((entry, position) => exactly[entry.rating]?.push(position));
  const atLeast = exactly.map((_, r) => Int32Array.from(exactly.slice(r).flat()).sort());
  return {
    exactly: exactly.map((list) => positionSet(Int32Array.from(list), entries.length)),
    atLeast: atLeast.map((list) => positionSet(list, entries.length)),
  };
}

function technicianNames(business: ReviewsDatasetHead['business']): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const technician of business.technicians) {
    for (const name of [technician.id, technician.name, ...technician.aliases]) {
      const key = normalizeName(name);
      const ids = names.get(key) ?? [];
      if (!ids.includes(technician.id)) ids.push(technician.id);
      names.set(key, ids);
    }
  }
  return names;
}

/**
 * Oldest first (date ascending, then id ascending) from newest first (date
 * descending, then id ascending): the runs of one date in reverse order, each in
 * its own order. Linear, where a sort would hold the event loop for 100 ms.
 */
function oldestFirstOrder(entries: readonly CatalogEntry[]): Int32Array {
  const order = new Int32Array(entries.length);
  let out = 0;
  for (let end = entries.length; end > 0; ) {
    let start = end - 1;
    while (start > 0 && (entries[start - 1] as CatalogEntry).date === (entries[end - 1] as CatalogEntry).date) start--;
    for (let position = start; position < end; position++) order[out++] = position;
    end = start;
  }
  return order;
}

/**
 * The digest of the JSON from each oldest-first index to the end: each link hashes
 * its review's digest and the link after it. Reviews keep their digests from build to
 * build, so a new build hashes 100,000 short links rather than 164 MB of JSON.
 */
function* suffixDigests(entries: readonly CatalogEntry[], oldestFirst: Int32Array, digests: string[]): Generator<void> {
  digests[oldestFirst.length] = '';
  for (let i = oldestFirst.length - 1; i >= 0; i--) {
    digests[i] = hash('sha256', `${(entries[oldestFirst[i] as number] as CatalogEntry).digest},${digests[i + 1] as string}`);
    if (i % STEP === 0) yield;
  }
}

/**
 * The catalog of these review lines (each review's JSON, in the order of
 * /reviews.json: newest first), yielding between steps. `previous`, the catalog
 * this one replaces, lends it what did not change.
 */
export function* catalogSteps(head: ReviewsDatasetHead, lines: Iterable<ByteString>, previous?: ReviewCatalog): Generator<void, ReviewCatalog> {
  let entries: CatalogEntry[] = [];
  let from: number[] = [];
  const same = previous && previousEntries(previous);
  for (const json of lines) {
    const found = same?.(json);
    entries.push(found ? found.entry : catalogEntry(json));
    from.push(found ? found.position : -1);
    if (entries.length % STEP === 0) yield;
  }
  // The published order, checked rather than trusted: a document out of order is sorted, never misread.
  if (entries.some((entry, i) => i > 0 && compareNewestFirst(entries[i - 1] as CatalogEntry, entry) > 0)) {
    const order = Array.from(entries.keys()).sort((a, b) => compareNewestFirst(entries[a] as CatalogEntry, entries[b] as CatalogEntry));
    [entries, from] = [order.map((i) => entries[i] as CatalogEntry), order.map((i) => from[i] as number)];
  }
  const count = entries.length;
  const marks = new Uint8Array(count);
  const text = yield* textIndexSteps(
    entries.map((entry) => entry.text),
    marks,
    previous && { index: previous.index.text, from: Int32Array.from(from) },
  );
  yield;
  const oldestFirst = oldestFirstOrder(entries);
  const changedFrom = new Array<string | null>(count + 1);
  changedFrom[count] = null;
  for (let i = count - 1; i >= 0; i--) changedFrom[i] = maxDate((entries[oldestFirst[i] as number] as CatalogEntry).updated, changedFrom[i + 1] as string | null);
  const digestFrom = new Array<string>(count + 1);
  yield* suffixDigests(entries, oldestFirst, digestFrom);
  const ratings = ratingSets(entries);
  const index: CatalogIndex = {
    dates: entries.map((entry) => entry.date),
    byRating: ratings.exactly,
    atLeastRating: ratings.atLeast,
    byTechnician: positionsByKey(entries, (entry) => entry.technicians),
    byService: positionsByKey(entries, (entry) => entry.services),
    technicianNames: technicianNames(head.business),
    serviceIds: new Map(head.business.services.map((service) => [normalizeName(service.id), service.id])),
    text,
    marks,
    bits: new Uint32Array((count + 31) >>> 5),
    oldestFirst,
    digestFrom,
    changedFrom,
  };
  yield;
  return reviewCatalog(head, entries, index);
}

/** Runs the steps to their end. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The catalog of a dataset, at once: each review's JSON made as /reviews.json writes it. */
export function buildReviewCatalog({ reviews, ...head }: ReviewsDataset): ReviewCatalog {
  return runSteps(catalogSteps(head, reviews.map((review) => toByteString(JSON.stringify(review)))));
}
