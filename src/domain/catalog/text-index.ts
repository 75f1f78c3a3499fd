/**
 * The index behind `query`, a case- and accent-insensitive substring search. Each
 * review's title and text are folded once (see `foldText`) and cut into words
 * (runs of letters and digits); every word keeps the sorted positions of the
 * reviews it occurs in. A needle's words must each occur inside some word of a
 * matching review, so the union of the postings of the vocabulary words that
 * contain a needle word is a superset of the matches: exactly the matches when
 * the needle is a single word. For a needle of several words (or none, "!") the
 * candidates must be checked with a substring test: the search either checks the
 * few that its other filters leave, or has every candidate checked once here,
 * the result cached by needle (paging asks the same needle again and again).
 */
import { foldText } from '../text.ts';
import { positionSet, type PositionSet } from './position-set.ts';
import { intersect, union } from './sorted-lists.ts';

const WORD = /[\p{L}\p{N}]+/gu;
const WHITE_SPACE = /\s+/gu;
/** The cache holds at most this many needles and positions (16 MiB). */
const CACHED_NEEDLES = 256;
const CACHED_POSITIONS = 4_000_000;

interface NeedleCache {
  /** Needle → the reviews that contain it, least recently used first. */
  readonly entries: Map<string, PositionSet>;
  positions: number;
}

export interface TextIndex {
  /** Folded title and text of each review by position, white space collapsed, title and text on two lines. */
  readonly texts: readonly string[];
  readonly words: readonly string[];
  /** Positions (ascending) of the reviews each word of `words` occurs in. */
  readonly postings: readonly Int32Array[];
  readonly cache: NeedleCache;
  /** Scratch space for unions (see sorted-lists.ts); requests never overlap, the code being synchronous. */
  readonly marks: Uint8Array;
}

export type TextMatch =
  /** The reviews that contain the needle: known without reading texts (one word, or asked before). */
  | { readonly needle: string; readonly matches: PositionSet }
  /** Reviews that may contain it and must be checked (`undefined`: every review). */
  | { readonly needle: string; readonly matches?: undefined; readonly candidates: Int32Array | undefined };

/** The searchable form of a piece of text: folded, white space runs made single spaces. */
function normalizeSearchText(value: string): string {
  return foldText(value).replace(WHITE_SPACE, ' ').trim();
}

/** A review's title and text as the index searches them: each folded, on two lines (see `texts`). */
export function foldedReviewText(title: string | null, body: string): string {
  // A newline between them: a normalised needle has none, so a match never spans title and text.
  return title ? `${normalizeSearchText(title)}\n${normalizeSearchText(body)}` : normalizeSearchText(body);
}

/** Positions between two yields while texts are cut into words, and words between two while lists are made. */
const STEP = 256;
/**
 * Postings renumbered between two yields when an index is carried over: bounded by
 * work, not words, as the first words met are the common ones, each in most reviews
 * (256 of them took 140 ms at 100,000 reviews).
 */
const POSTINGS_STEP = 1 << 16;

/** Each word of these texts (by position) with the ascending positions of the texts it occurs in. */
function* wordLists(texts: readonly string[], positions: Iterable<number>): Generator<void, Map<string, number[]>> {
  const lists = new Map<string, number[]>();
  let done = 0;
  for (const position of positions) {
    for (const [word] of (texts[position] as string).matchAll(WORD)) {
      const list = lists.get(word);
      if (!list) lists.set(word, [position]);
      else if (list[list.length - 1] !== position) list.push(position);
    }
    if (++done % STEP === 0) yield;
  }
  return lists;
}

function merge(a: Int32Array, b: readonly number[]): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) out[n++] = (a[i] as number) < (b[j] as number) ? (a[i++] as number) : (b[j++] as number);
  while (i < a.length) out[n++] = a[i++] as number;
  while (j < b.length) out[n++] = b[j++] as number;
  return out;
}

/**
 * The previous index's postings renumbered to the new positions (`from`: the old
 * position of each new one, -1 for a text it did not have), the words of the
 * new texts merged in. Only the new texts are cut into words.
 */
function* carriedOver(previous: TextIndex, texts: readonly string[], from: Int32Array): Generator<void, { words: string[]; postings: Int32Array[] }> {
  const oldToNew = new Int32Array(previous.texts.length).fill(-1);
  const fresh: number[] = [];
  for (let position = 0; position < from.length; position++) {
    const old = from[position] as number;
    if (old >= 0) oldToNew[old] = position;
    else fresh.push(position);
    if (position % POSTINGS_STEP === POSTINGS_STEP - 1) yield;
  }
  yield;
  const added = yield* wordLists(texts, fresh);
  const words: string[] = [];
  const postings: Int32Array[] = [];
  const scratch = new Int32Array(texts.length);
  let renumbered = 0;
  for (let w = 0; w < previous.words.length; w++) {
    const word = previous.words[w] as string;
    const old = previous.postings[w] as Int32Array;
    let n = 0;
    let ascending = true;
    for (let i = 0; i < old.length; i++) {
      const position = oldToNew[old[i] as number] as number;
      if (position < 0) continue;
      if (n > 0 && position < (scratch[n - 1] as number)) ascending = false;
      scratch[n++] = position;
    }
    const kept = scratch.subarray(0, n);
    // Both builds list reviews newest first, so renumbering keeps a list ascending; sorted if it ever did not.
    if (!ascending) kept.sort();
    const more = added.get(word);
    added.delete(word);
    const list = more ? merge(kept, more) : kept.slice();
    if (list.length > 0) {
      words.push(word);
      postings.push(list);
    }
    renumbered += old.length + 1;
    if (renumbered >= POSTINGS_STEP) {
      renumbered = 0;
      yield;
    }
  }
  for (const [word, list] of added) {
    words.push(word);
    postings.push(Int32Array.from(list));
  }
  return { words, postings };
}

/**
 * The index of these texts (folded, by position), yielding between steps (see
 * catalog-builder.ts). `carry`: the index this one replaces and the old position of
 * each text (-1 for a new one), whose postings are carried over.
 */
export function* textIndexSteps(texts: readonly string[], marks: Uint8Array, carry?: { index: TextIndex; from: Int32Array }): Generator<void, TextIndex> {
  let words: string[];
  let postings: Int32Array[];
  if (carry) ({ words, postings } = yield* carriedOver(carry.index, texts, carry.from));
  else {
    const lists = yield* wordLists(texts, texts.keys());
    words = [...lists.keys()];
    postings = [];
    let copied = 0;
    for (const word of words) {
      const list = lists.get(word) as number[];
      postings.push(Int32Array.from(list));
      copied += list.length + 1;
      if (copied >= POSTINGS_STEP) {
        copied = 0;
        yield;
      }
    }
  }
  return { texts, words, postings, cache: { entries: new Map(), positions: 0 }, marks };
}

function remember({ cache, texts }: TextIndex, needle: string, list: Int32Array): PositionSet {
  const matches = positionSet(list, texts.length);
  cache.entries.set(needle, matches);
  cache.positions += list.length;
  for (const [oldest, set] of cache.entries) {
    if (cache.entries.size <= CACHED_NEEDLES && cache.positions <= CACHED_POSITIONS) break;
    cache.entries.delete(oldest);
    cache.positions -= set.list.length;
  }
  return matches;
}

function recall({ cache }: TextIndex, needle: string): PositionSet | undefined {
  const positions = cache.entries.get(needle);
  if (positions) {
    // Refresh its place, so that the least recently used needle goes first.
    cache.entries.delete(needle);
    cache.entries.set(needle, positions);
  }
  return positions;
}

/** Positions of the reviews with a word that contains `part`, ascending. */
function containing(index: TextIndex, part: string): Int32Array {
  const lists: Int32Array[] = [];
  index.words.forEach((word, i) => {
    if (word.includes(part)) lists.push(index.postings[i] as Int32Array);
  });
  return union(lists, index.marks);
}

export function matchText(index: TextIndex, query: string): TextMatch {
  const needle = normalizeSearchText(query);
  const cached = recall(index, needle);
  if (cached) return { needle, matches: cached };
  const parts = [...new Set(needle.match(WORD) ?? [])];
  if (parts.length === 0) return { needle, candidates: undefined };
  let candidates: Int32Array | undefined;
  for (const part of parts.map((p) => containing(index, p)).sort((a, b) => a.length - b.length)) {
    candidates = candidates ? intersect(candidates, part) : part;
    if (candidates.length === 0) break;
  }
  if (parts.length === 1 && parts[0] === needle) return { needle, matches: remember(index, needle, candidates as Int32Array) };
  return { needle, candidates };
}

/** The reviews that contain the needle, every candidate checked; cached for the next request. */
export function verifiedMatches(index: TextIndex, match: TextMatch): PositionSet {
  if (match.matches) return match.matches;
  const { texts } = index;
  const kept: number[] = [];
  const check = (position: number) => {
    if ((texts[position] as string).includes(match.needle)) kept.push(position);
  };
  if (match.candidates) match.candidates.forEach(check);
  else for (let position = 0; position < texts.length; position++) check(position);
  return remember(index, match.needle, Int32Array.from(kept));
}
