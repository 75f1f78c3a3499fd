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
/** Iterations between two yields of a loop that does a little for every review (a comparison, a copy). */
const LOOP_STEP = 8192;

/** The entry of a review's published JSON. */
function catalogEntry(json: ByteString): CatalogEntry {
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

/**
 * One review's line of /reviews.json, as a reader hands it over: read its bytes as
 * a byte string only when they are new. Comparing them with the previous build's
 * entry instead of making a string of each saves a switch 164 MB of short-lived
 * strings at 100,000 reviews. Valid until the next line is read.
 */
export interface ReviewLine {
  /** Whether the line's bytes are exactly these. */
  is(json: ByteString): boolean;
  /** The line's bytes. */
  json(): ByteString;
}

/** A line already held as a byte string. */
export function stringLine(json: ByteString): ReviewLine {
  return { is: (other) => other === json, json: () => json };
}

const ID_START = '{"id":"';

/**
 * Finds, in the previous catalog, the entry of a review whose bytes did not change.
 * Both catalogs list reviews newest first, so the next line is most often the
 * entry after the last one found: that is tried first, then the review's id.
 */
function previousEntries(previous: ReviewCatalog) {
  let next = 0;
  return (line: ReviewLine, json: () => ByteString): { entry: CatalogEntry; position: number } | undefined => {
    let position: number | undefined = next;
    const expected = previous.entries[position];
    if (!expected || !line.is(expected.json)) {
      const bytes = json();
      // Every review's JSON starts with its id (review-record.ts), which needs no escaping.
      if (!bytes.startsWith(ID_START)) return undefined;
      position = previous.positionOf(bytes.slice(ID_START.length, bytes.indexOf('"', ID_START.length)));
      if (position === undefined || (previous.entries[position] as CatalogEntry).json !== bytes) return undefined;
    }
    next = position + 1;
    return { entry: previous.entries[position] as CatalogEntry, position };
  };
}

interface FieldIndexes {
  dates: string[];
  byRating: PositionSet[];
  atLeastRating: PositionSet[];
  byTechnician: Map<string, PositionSet>;
  byService: Map<string, PositionSet>;
  positions: Map<string, number>;
}

/** The positions by date, rating, technician, service and id: one pass over the entries, then the sets, yielding between steps. */
function* fieldIndexes(entries: readonly CatalogEntry[]): Generator<void, FieldIndexes> {
  const dates = new Array<string>(entries.length);
  const exactly: number[][] = [[], [], [], [], [], []];
  const atLeast: number[][] = [[], [], [], [], [], []];
  const technicians = new Map<string, number[]>();
  const services = new Map<string, number[]>();
  const positions = new Map<string, number>();
  const add = (lists: Map<string, number[]>, key: string, position: number) => {
    const list = lists.get(key);
    if (list) list.push(position);
    else lists.set(key, [position]);
  };
  for (let position = 0; position < entries.length; position++) {
    const entry = entries[position] as CatalogEntry;
    dates[position] = entry.date;
    exactly[entry.rating]?.push(position);
    for (let r = 0; r <= entry.rating; r++) atLeast[r]?.push(position);
    for (const id of entry.technicians) add(technicians, id, position);
    for (const id of entry.services) add(services, id, position);
    positions.set(entry.id, position);
    if (position % STEP === STEP - 1) yield;
  }
  const sets = function* <K>(lists: Iterable<[K, number[]]>): Generator<void, Map<K, PositionSet>> {
    const out = new Map<K, PositionSet>();
    for (const [key, list] of lists) {
      out.set(key, positionSet(Int32Array.from(list), entries.length));
      yield;
    }
    return out;
  };
  // By rating, 0 to 5: the arrays' own indexes.
  const byRating = yield* sets(exactly.entries());
  const atLeastRating = yield* sets(atLeast.entries());
  return {
    dates,
    byRating: [...byRating.values()],
    atLeastRating: [...atLeastRating.values()],
    byTechnician: yield* sets(technicians),
    byService: yield* sets(services),
    positions,
  };
}

/** Ids by folded id, name and alias (see namedIds). */
function idsByName(entities: readonly { id: string; name: string; aliases: readonly string[] }[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const entity of entities) {
    for (const name of [entity.id, entity.name, ...entity.aliases]) {
      const key = normalizeName(name);
      const ids = names.get(key) ?? [];
      if (!ids.includes(entity.id)) ids.push(entity.id);
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
function* oldestFirstOrder(entries: readonly CatalogEntry[]): Generator<void, Int32Array> {
  const order = new Int32Array(entries.length);
  let out = 0;
  let placed = 0;
  for (let end = entries.length; end > 0; ) {
    let start = end - 1;
    while (start > 0 && (entries[start - 1] as CatalogEntry).date === (entries[end - 1] as CatalogEntry).date) start--;
    for (let position = start; position < end; position++) order[out++] = position;
    end = start;
    if (out - placed >= LOOP_STEP) {
      placed = out;
      yield;
    }
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
export function* catalogSteps(head: ReviewsDatasetHead, lines: Iterable<ReviewLine>, previous?: ReviewCatalog): Generator<void, ReviewCatalog> {
  let entries: CatalogEntry[] = [];
  let from: number[] = [];
  const same = previous && previousEntries(previous);
  for (const line of lines) {
    let bytes: ByteString | undefined;
    const json = () => (bytes ??= line.json());
    const found = same?.(line, json);
    entries.push(found ? found.entry : catalogEntry(json()));
    from.push(found ? found.position : -1);
    if (entries.length % STEP === 0) yield;
  }
  yield;
  // The published order, checked rather than trusted: a document out of order is sorted, never misread.
  let ordered = true;
  for (let i = 1; i < entries.length && ordered; i++) {
    ordered = compareNewestFirst(entries[i - 1] as CatalogEntry, entries[i] as CatalogEntry) <= 0;
    if (i % LOOP_STEP === 0) yield;
  }
  if (!ordered) {
    const order = Array.from(entries.keys()).sort((a, b) => compareNewestFirst(entries[a] as CatalogEntry, entries[b] as CatalogEntry));
    [entries, from] = [order.map((i) => entries[i] as CatalogEntry), order.map((i) => from[i] as number)];
  }
  const count = entries.length;
  const marks = new Uint8Array(count);
  const texts = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    texts[i] = (entries[i] as CatalogEntry).text;
    if (i % LOOP_STEP === LOOP_STEP - 1) yield;
  }
  yield;
  const text = yield* textIndexSteps(texts, marks, previous && { index: previous.index.text, from: Int32Array.from(from) });
  yield;
  const oldestFirst = yield* oldestFirstOrder(entries);
  yield;
  const changedFrom = new Array<string | null>(count + 1);
  changedFrom[count] = null;
  for (let i = count - 1; i >= 0; i--) {
    changedFrom[i] = maxDate((entries[oldestFirst[i] as number] as CatalogEntry).updated, changedFrom[i + 1] as string | null);
    if (i % LOOP_STEP === 0) yield;
  }
  const digestFrom = new Array<string>(count + 1);
  yield* suffixDigests(entries, oldestFirst, digestFrom);
  const fields = yield* fieldIndexes(entries);
  const index: CatalogIndex = {
    dates: fields.dates,
    byRating: fields.byRating,
    atLeastRating: fields.atLeastRating,
    byTechnician: fields.byTechnician,
    byService: fields.byService,
    technicianNames: idsByName(head.business.technicians),
    serviceNames: idsByName(head.business.services),
    text,
    marks,
    bits: new Uint32Array((count + 31) >>> 5),
    oldestFirst,
    digestFrom,
    changedFrom,
  };
  return reviewCatalog(head, entries, index, fields.positions);
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
  return runSteps(catalogSteps(head, reviews.map((review) => stringLine(toByteString(JSON.stringify(review))))));
}
