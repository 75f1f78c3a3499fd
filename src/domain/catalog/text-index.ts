/**
 * The index behind `query`, a case- and accent-insensitive substring search. Each
 * review's title and text are folded once (see `foldText`) and cut into words
 * (runs of letters and digits); every word keeps the sorted positions of the
 * reviews it occurs in. A needle's words must each occur inside some word of a
 * matching review, so the union of the postings of the vocabulary words that
 * contain a needle word is a superset of the matches; when the needle is a single
 * word it is exactly the matches, otherwise the few candidates are checked with a
 * substring test. A request never scans every text unless its needle has no word
 * at all (punctuation only).
 */
import { foldText } from '../text.ts';

const WORD = /[\p{L}\p{N}]+/gu;
const WHITE_SPACE = /\s+/gu;
const CACHED_WORDS = 256;

export interface TextIndex {
  /** Folded title and text of each review by position, white space collapsed, title and text on two lines. */
  readonly texts: readonly string[];
  readonly words: readonly string[];
  /** Positions (ascending) of the reviews each word of `words` occurs in. */
  readonly postings: readonly Int32Array[];
  /** Recently asked needle words and the union of their postings. */
  readonly cache: Map<string, Int32Array>;
  /** Scratch marks for unions; one request at a time uses it (the code is synchronous). */
  readonly marks: Uint8Array;
}

export interface TextMatch {
  /** The folded needle every match contains. */
  readonly needle: string;
  /** Ascending positions: the matches themselves when `exact`, else a superset; undefined when the needle has no word. */
  readonly candidates: Int32Array | undefined;
  readonly exact: boolean;
}

/** The searchable form of a piece of text: folded, white space runs made single spaces. */
export function normalizeSearchText(value: string): string {
  return foldText(value).replace(WHITE_SPACE, ' ').trim();
}

export function buildTextIndex(titles: readonly (string | null)[], bodies: readonly string[]): TextIndex {
  const texts = bodies.map((body, i) => {
    const title = titles[i];
    // A newline between them: a normalised needle has none, so a match never spans title and text.
    return title ? `${normalizeSearchText(title)}\n${normalizeSearchText(body)}` : normalizeSearchText(body);
  });
  const lists = new Map<string, number[]>();
  texts.forEach((text, position) => {
    for (const [word] of text.matchAll(WORD)) {
      const list = lists.get(word);
      if (!list) lists.set(word, [position]);
      else if (list[list.length - 1] !== position) list.push(position);
    }
  });
  const words = [...lists.keys()];
  return {
    texts,
    words,
    postings: words.map((word) => Int32Array.from(lists.get(word) as number[])),
    cache: new Map(),
    marks: new Uint8Array(texts.length),
  };
}

/** Positions of the reviews with a word that contains `part`, ascending. */
function containing(index: TextIndex, part: string): Int32Array {
  const cached = index.cache.get(part);
  if (cached) {
    // Refresh its place: the cache forgets the least recently used word first.
    index.cache.delete(part);
    index.cache.set(part, cached);
    return cached;
  }
  const lists: Int32Array[] = [];
  index.words.forEach((word, i) => {
    if (word.includes(part)) lists.push(index.postings[i] as Int32Array);
  });
  const union = lists.length === 1 ? (lists[0] as Int32Array) : unionOf(lists, index.marks);
  index.cache.set(part, union);
  if (index.cache.size > CACHED_WORDS) index.cache.delete(index.cache.keys().next().value as string);
  return union;
}

function unionOf(lists: readonly Int32Array[], marks: Uint8Array): Int32Array {
  let size = 0;
  let low = marks.length;
  let high = -1;
  for (const list of lists) {
    for (const position of list) {
      if (marks[position] === 0) {
        marks[position] = 1;
        size++;
      }
    }
    if (list.length) {
      low = Math.min(low, list[0] as number);
      high = Math.max(high, list[list.length - 1] as number);
    }
  }
  const union = new Int32Array(size);
  let n = 0;
  for (let position = low; position <= high; position++) {
    if (marks[position] === 1) {
      marks[position] = 0;
      union[n++] = position;
    }
  }
  return union;
}

export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

export function matchText(index: TextIndex, query: string): TextMatch {
  const needle = normalizeSearchText(query);
  const parts = [...new Set(needle.match(WORD) ?? [])];
  if (parts.length === 0) return { needle, candidates: undefined, exact: false };
  let candidates: Int32Array | undefined;
  for (const part of parts.map((p) => containing(index, p)).sort((a, b) => a.length - b.length)) {
    candidates = candidates ? intersect(candidates, part) : part;
    if (candidates.length === 0) break;
  }
  return { needle, candidates, exact: parts.length === 1 && parts[0] === needle };
}
