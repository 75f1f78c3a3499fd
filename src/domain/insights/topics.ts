/**
 * Recurring phrases: word sequences of two or three words that several reviews share,
 * counted once per review. A phrase that only ever appears inside a longer recurring
 * phrase is left out, so "magnet sweep" does not also list "magnet" fragments.
 */
import { foldText } from '../text.ts';
import type { Review } from '../schemas/review.ts';

export interface Topic {
  phrase: string;
  count: number;
  review_ids: string[];
}

/** Words a phrase neither starts nor ends with. */
export const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be been before being below between both but by can could
did do does doing done down during each even ever every few for from further get got had has have having he her here
him his how i if in into is it its just let like made make me more most much my myself no nor not now of off on once
one only or other our ours out over own really same she should so some still such than that the their them then there
these they this those through to too two under until up us very was we well went were what when where which while who
whom why will with would you your yours yet back way came come going go said say told asked know think thing things
day days time times week weeks year years lot first last next new old great good best nice highly recommend recommended
would definitely absolutely again everything anything something nothing company job work roof guys guy crew team
else someone somebody took take put sent send three four five six seven eight nine ten twice once`
    .split(/\s+/)
    .filter(Boolean),
);

// Phrases never cross a sentence or clause break.
const CLAUSE_BREAK = /[.!?;:,()\n]+/;
/** A word or a clause break, to read a text's words clause by clause in one pass. */
const WORD_OR_BREAK = /([\p{L}\p{N}]+(?:['’][\p{L}]+)?)|[.!?;:,()\n]/gu;
const NOT_BREAK = /[^.!?;:,()\n]+/g;
const BREAK = /[.!?;:,()\n]/g;
const ASCII = /^[\x00-\x7f]*$/;
const NUMBER = /^\d+$/;
/** The clause breaks, by character code, for the ASCII reader. */
const IS_BREAK: boolean[] = Array.from({ length: 128 }, (_, code) => '.!?;:,()\n'.includes(String.fromCharCode(code)));
const APOSTROPHE = 39;

const breaks = (text: string) => text.replace(NOT_BREAK, '').length;

/**
 * The text folded clause by clause (foldText), with its clause breaks. Folding the whole text
 * at once gives the same clauses, and is faster, unless folding makes a new break (a full-width
 * comma folds to ",") or meets a sigma, whose lower case depends on the letter after it.
 */
function foldedClauses(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  const folded = foldText(text);
  if (!/[σς]/.test(folded) && breaks(folded) === breaks(text)) return folded;
  // A break that folding makes inside a clause does not end it: it only separates words, as a space does.
  return text
    .split(CLAUSE_BREAK)
    .map((clause) => foldText(clause).replace(BREAK, ' '))
    .join('\n');
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => code >= 97 && code <= 122;
const isLetterOrDigit = (code: number) => isLetter(code) || isDigit(code);

/** The words of folded text, in order, with null for each clause break. */
function wordsAndBreaks(folded: string): (string | null)[] {
  if (!ASCII.test(folded)) return Array.from(folded.matchAll(WORD_OR_BREAK), (match) => match[1] ?? null);
  // Folded ASCII text (most reviews in English) is read by hand, as WORD_OR_BREAK reads it: letters are a-z, numbers 0-9.
  const read: (string | null)[] = [];
  let at = 0;
  while (at < folded.length) {
    const code = folded.charCodeAt(at);
    if (!isLetterOrDigit(code)) {
      if (IS_BREAK[code]) read.push(null);
      at += 1;
      continue;
    }
    const start = at;
    do at += 1;
    while (isLetterOrDigit(folded.charCodeAt(at)));
    if (folded.charCodeAt(at) === APOSTROPHE && isLetter(folded.charCodeAt(at + 1))) {
      at += 2;
      while (isLetter(folded.charCodeAt(at))) at += 1;
    }
    read.push(folded.slice(start, at));
  }
  return read;
}

/** A word that may start or end a phrase: neither a stopword nor a number, nor a single letter. */
const LONGEST_STOPWORD = Math.max(...[...STOPWORDS].map((word) => word.length));
const isEdge = (word: string) =>
  word.length >= 2 && (word.length > LONGEST_STOPWORD || !STOPWORDS.has(word)) && !(isDigit(word.charCodeAt(0)) && NUMBER.test(word));

/** Calls `found` with the words of each phrase of the text (the third undefined for two words), once or more: the text's words are read once, the last two kept. */
function eachPhrase(text: string, found: (first: string, second: string, third: string | undefined) => void): void {
  // The two words before this one in the clause, and whether each can start a phrase or stand inside one.
  let first: string | undefined;
  let firstEdge = false;
  let second: string | undefined;
  let secondEdge = false;
  let secondLong = false;
  for (const word of wordsAndBreaks(foldedClauses(text))) {
    if (word === null) {
      first = second = undefined;
      firstEdge = secondEdge = secondLong = false;
      continue;
    }
    const edge = isEdge(word);
    if (edge && secondEdge) found(second as string, word, undefined);
    if (edge && firstEdge && secondLong) found(first as string, second as string, word);
    first = second;
    firstEdge = secondEdge;
    second = word;
    secondEdge = edge;
    secondLong = word.length >= 2;
  }
}

interface Occurrences {
  count: number;
  /** The first review ids, as many as a topic lists. */
  ids: string[];
  /** The index of the last review counted, so each review counts once. */
  last: number;
}

/** Phrases by their words, so a phrase is looked up by words already read (their hashes known), not by a new string. */
type ByWord<T> = Map<string, T>;

function entryOf<T>(map: ByWord<T>, word: string, make: () => T): T {
  let entry = map.get(word);
  if (entry === undefined) map.set(word, (entry = make()));
  return entry;
}

export function recurringTopics(reviews: readonly Review[], options = { minCount: 3, limit: 25, idsPerTopic: 10 }): Topic[] {
  const pairs: ByWord<ByWord<Occurrences>> = new Map();
  const triples: ByWord<ByWord<ByWord<Occurrences>>> = new Map();
  reviews.forEach((review, index) => {
    eachPhrase(review.title ? `${review.title}\n${review.text}` : review.text, (first, second, third) => {
      const last = third === undefined ? entryOf(pairs, first, () => new Map()) : entryOf(entryOf(triples, first, () => new Map()), second, () => new Map());
      const word = third ?? second;
      const seen = last.get(word);
      if (!seen) last.set(word, { count: 1, ids: options.idsPerTopic > 0 ? [review.id] : [], last: index });
      else if (seen.last !== index) {
        seen.count += 1;
        seen.last = index;
        if (seen.ids.length < options.idsPerTopic) seen.ids.push(review.id);
      }
    });
  });
  const recurring: [string, Occurrences][] = [];
  // A two-word phrase is dropped when every occurrence is inside a longer recurring phrase, that is
  // when a recurring three-word phrase that starts or ends with it has its count.
  const inside = new Set<Occurrences>();
  for (const [first, seconds] of pairs) {
    for (const [second, seen] of seconds) if (seen.count >= options.minCount) recurring.push([`${first} ${second}`, seen]);
  }
  for (const [first, seconds] of triples) {
    for (const [second, thirds] of seconds) {
      for (const [third, seen] of thirds) {
        if (seen.count < options.minCount) continue;
        recurring.push([`${first} ${second} ${third}`, seen]);
        for (const part of [pairs.get(first)?.get(second), pairs.get(second)?.get(third)]) if (part?.count === seen.count) inside.add(part);
      }
    }
  }
  return recurring
    .filter(([, seen]) => !inside.has(seen))
    .sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, options.limit)
    .map(([phrase, { count, ids }]) => ({ phrase, count, review_ids: ids }));
}
