/**
 * Sentence splitting for review text.
 *
 * Boundaries: line breaks (a review's own line/paragraph breaks are always respected), and
 * `.`, `!`, `?`, `…` (or runs of them) followed by white space, optionally after closing quotes
 * or brackets. Not boundaries: decimals and amounts ("$12.50", "4.5"), titles and common
 * abbreviations ("Mr.", "Dr.", "St.", "e.g.", "approx."), single-letter initials ("J. Smith"),
 * and "a.m."/"p.m."/"etc." unless the next word is capitalised and looks like a sentence start.
 */

/** Never end a sentence after these (lower-case, without the final dot). */
const NON_TERMINAL = new Set([
  'mr', 'mrs', 'ms', 'dr', 'st', 'jr', 'sr', 'prof', 'rev', 'gen', 'capt', 'lt', 'sgt', 'mt', 'ft',
  'ave', 'rd', 'blvd', 'ln', 'hwy', 'inc', 'co', 'corp', 'ltd', 'llc', 'vs', 'e.g', 'i.e', 'eg', 'ie',
  'approx', 'est', 'no', 'nos', 'dept', 'apt', 'bldg', 'sq', 'min', 'max', 'jan', 'feb', 'mar', 'apr',
  'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur',
  'thurs', 'fri', 'sat', 'sun', 'u.s', 'fig', 'ca', 'cf',
]);

/** May end a sentence only when a capitalised sentence-starter follows. */
const AMBIGUOUS = new Set(['a.m', 'p.m', 'am', 'pm', 'etc', 'hrs', 'yrs', 'mins', 'lbs', 'sq.ft']);

const SENTENCE_STARTERS = new Set([
  'the', 'they', 'we', 'i', 'it', 'he', 'she', 'you', 'our', 'my', 'their', 'his', 'her', 'this',
  'that', 'these', 'those', 'there', 'a', 'an', 'after', 'when', 'then', 'also', 'overall', 'but',
  'and', 'so', 'highly', 'great', 'would', 'will', 'if', 'however', 'not', 'no', 'very', 'thanks',
  'thank', 'everything', 'everyone', 'all', 'one', 'two', 'three', 'even', 'just', 'in', 'on', 'at',
]);

function previousWord(text: string, dotIndex: number): string {
  let i = dotIndex;
  while (i > 0 && /[\p{L}.]/u.test(text[i - 1] ?? '')) i -= 1;
  return text.slice(i, dotIndex).toLowerCase();
}

function nextWord(text: string, from: number): string {
  const m = /^["'“‘(\[]*([\p{L}\d']+)/u.exec(text.slice(from));
  return m?.[1] ?? '';
}

function splitLine(line: string, out: string[]): void {
  let start = 0;
  const re = /[.!?…]+["'”’)\]]*(?=\s|$)/gu;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    const end = m.index + m[0].length;
    const after = line.slice(end);
    if (after.trim() === '') break; // the rest of the line is this sentence's end
    const punct = m[0];
    if (/^\.["'”’)\]]*$/u.test(punct)) {
      const prev = previousWord(line, m.index);
      const nextStart = end + (after.length - after.trimStart().length);
      const next = nextWord(line, nextStart);
      if (NON_TERMINAL.has(prev)) continue;
      if (/^\p{L}$/u.test(prev) && /^\p{Lu}/u.test(next)) continue; // initial: "J. Smith"
      if (/^\p{L}(\.\p{L})+$/u.test(prev) || AMBIGUOUS.has(prev)) {
        const capitalised = /^\p{Lu}/u.test(next);
        if (!(capitalised && SENTENCE_STARTERS.has(next.toLowerCase()))) continue;
      }
    }
    const sentence = line.slice(start, end).trim();
    if (sentence !== '') out.push(sentence);
    start = end;
  }
  const rest = line.slice(start).trim();
  if (rest !== '') out.push(rest);
}

/** Split review text into trimmed, non-empty sentences, in order. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n|\u2028|\u2029/u)) {
    if (line.trim() !== '') splitLine(line, out);
  }
  return out;
}
