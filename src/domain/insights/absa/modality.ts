/**
 * Rules that change what an opinion phrase means because of the words around it rather than
 * its own polarity: quotation (reported speech and scare quotes), counterfactual modality and
 * problem descriptions after verbs of repair.
 */
import type { Match } from './lexicon.ts';
import type { Token } from './tokenize.ts';

/** Not quoted, a scare quote (one or two words: "fixed"), reported speech (three words or more). */
export const NOT_QUOTED = 0;
export const SCARE_QUOTE = 1;
export const REPORTED = 2;

/** Words after a remedy within which a negative phrase is the problem that was dealt with. */
export const REMEDY_WINDOW = 5;

const OPEN_CLOSE = new Set(['"']);
const OPEN = new Set(['“']);
const CLOSE = new Set(['”']);

/**
 * For each token, whether it is inside double quotes and which kind. Reported speech ("ma'am,
 * you'll have to be patient") is someone else's wording, not the reviewer's opinion; a one- or
 * two-word quote around a positive word ("they "fixed" it") is ironic. Unclosed quotes mark nothing.
 */
export function quoteKinds(tokens: readonly Token[]): Uint8Array {
  const kinds = new Uint8Array(tokens.length);
  let open = -1;
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i];
    if (t === undefined || t.kind !== 'punct') continue;
    const opens = OPEN.has(t.norm) || (OPEN_CLOSE.has(t.norm) && open < 0);
    const closes = CLOSE.has(t.norm) || (OPEN_CLOSE.has(t.norm) && open >= 0);
    if (closes && open >= 0) {
      let words = 0;
      for (let j = open + 1; j < i; j += 1) if (tokens[j]?.kind !== 'punct') words += 1;
      const kind = words >= 3 ? REPORTED : SCARE_QUOTE;
      for (let j = open + 1; j < i; j += 1) kinds[j] = kind;
      open = -1;
    } else if (opens) {
      open = i;
    }
  }
  return kinds;
}

/** The polarity a phrase carries before any modifier: the sign of its first sense with a value. */
export function polarityOf(m: Match): number {
  for (const s of m.pattern.senses) {
    if (s.kind === 'aspectSentiment' || s.kind === 'sentiment') return Math.sign(s.value);
  }
  return 0;
}

const FIRST_PERSON = new Set(['i', 'we']);

/** The reviewer is the subject of the remedy ("we found nails in the yard"): a complaint, not a repair. */
function byReviewer(r: Match, tokens: readonly Token[]): boolean {
  for (let i = Math.max(0, r.start - 2); i < r.start; i += 1) if (FIRST_PERSON.has(tokens[i]?.lower ?? '')) return true;
  return false;
}

/**
 * True when a negative phrase describes the problem a repair dealt with: a remedy ("fixed",
 * "replaced", "found") by the contractor shortly before it in the same clause, with no
 * punctuation in between ("fixed two cracked vent caps", "he found a leak"; not "fixed it, but
 * it still leaks", nor "we found nails in the grass").
 */
export function isRemedied(
  m: Match,
  remedies: readonly Match[],
  tokens: readonly Token[],
  sameClause: (a: number, b: number) => boolean,
): boolean {
  return remedies.some((r) => {
    if (r.end > m.start || m.start - r.end > REMEDY_WINDOW || !sameClause(r.start, m.start) || byReviewer(r, tokens)) return false;
    for (let i = r.end; i < m.start; i += 1) if (tokens[i]?.kind === 'punct') return false;
    return true;
  });
}

/** The counterfactual marker ("should have", "wish they") that governs a phrase: the nearest one before it in its clause. */
export function governingCounterfactual(
  m: Match,
  counterfactuals: readonly Match[],
  sameClause: (a: number, b: number) => boolean,
): Match | undefined {
  let best: Match | undefined;
  for (const c of counterfactuals) {
    if (c.end <= m.start && sameClause(c.start, m.start) && (best === undefined || c.end > best.end)) best = c;
  }
  return best;
}
