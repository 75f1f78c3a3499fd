/**
 * Compiles a `Vocabulary` into phrase patterns indexed by first token, and finds
 * non-overlapping matches in a token sequence (longest match first).
 *
 * Pattern syntax (one vocabulary string): words separated by spaces; each word is stemmed,
 * so inflections match. `*` skips 0–4 words (never punctuation), `#` is one or two number
 * tokens (digits or number words such as "a", "two", "single"), `$` is a money amount, and
 * `=word` matches that exact word form only (no stemming: "=damaged" does not match "damage").
 */
import { ASPECT_IDS } from '../../schemas/aspects.ts';
import type { AspectId } from '../../schemas/aspects.ts';
import { tokenize } from './tokenize.ts';
import type { Token } from './tokenize.ts';
import type { Vocabulary } from './aspect-vocabulary.ts';

export type CueTier = 0 | 1 | 2; // 0 = cue, 1 = weak cue, 2 = generic cue

export type Sense =
  | { readonly kind: 'cue'; readonly aspect: AspectId; readonly tier: CueTier }
  | { readonly kind: 'aspectSentiment'; readonly aspect: AspectId; readonly value: number }
  | { readonly kind: 'sentiment'; readonly value: number }
  | { readonly kind: 'negator' | 'broadNegator' | 'intensifier' | 'diminisher' | 'hedge' | 'counterfactual' | 'remedy' }
  | { readonly kind: 'contrastBut' | 'contrastAlthough' | 'ignore' | 'otherParty' | 'priorProblem' };

/** One pattern position. All slots share one object shape (fast property access when matching). */
interface Slot {
  readonly t: 'word' | 'lit' | 'exact' | 'gap' | 'num' | 'money';
  /** Stem to match (`word`). */
  readonly norm: string;
  /** Exact lower-case form to match (`lit`, `exact`). */
  readonly lower: string;
}

function slot(t: Slot['t'], norm = '', lower = ''): Slot {
  return { t, norm, lower };
}

export interface Pattern {
  readonly slots: readonly Slot[];
  readonly literals: number;
  readonly senses: Sense[];
  readonly order: number;
}

/** Patterns sharing a first token, sub-indexed by their second token when it is a literal. */
export interface Bucket {
  readonly bySecondWord: ReadonlyMap<string, readonly Pattern[]>;
  readonly bySecondLower: ReadonlyMap<string, readonly Pattern[]>;
  /** One-token patterns and patterns whose second slot is `*`, `#` or `$`. */
  readonly rest: readonly Pattern[];
}

export interface PassIndex {
  /** Patterns by the stem of their first word. */
  readonly byWord: ReadonlyMap<string, Bucket>;
  /** Patterns by the exact lower-case form of their first token (`=word`, numbers, punctuation). */
  readonly byLower: ReadonlyMap<string, Bucket>;
  readonly numeric: readonly Pattern[];
  readonly money: readonly Pattern[];
}

export interface Match {
  readonly pattern: Pattern;
  readonly start: number;
  /** Exclusive end of the matched span (including gaps). */
  readonly end: number;
  /** Positions of the tokens matched by literal slots. */
  readonly literals: readonly number[];
}

export interface Lexicon {
  readonly mask: PassIndex;
  readonly cue: PassIndex;
  readonly sentiment: PassIndex;
}

export const MAX_GAP = 4;

function compileSlots(phrase: string): Slot[] {
  const slots: Slot[] = [];
  for (const piece of phrase.trim().split(/\s+/)) {
    if (piece === '*') slots.push(slot('gap'));
    else if (piece === '#') slots.push(slot('num'));
    else if (piece === '$') slots.push(slot('money'));
    else if (piece.startsWith('=') && piece.length > 1) slots.push(slot('exact', '', piece.slice(1).toLowerCase()));
    else {
      for (const tok of tokenize(piece)) {
        if (tok.kind === 'word') slots.push(slot('word', tok.norm));
        else slots.push(slot('lit', '', tok.lower));
      }
    }
  }
  // Gaps at either end are meaningless; drop them.
  while (slots[0]?.t === 'gap') slots.shift();
  while (slots[slots.length - 1]?.t === 'gap') slots.pop();
  return slots;
}

function slotKey(s: Slot): string {
  switch (s.t) {
    case 'word':
      return `w:${s.norm}`;
    case 'lit':
      return `l:${s.lower}`;
    case 'exact':
      return `e:${s.lower}`;
    default:
      return s.t;
  }
}

class PassBuilder {
  readonly #patterns = new Map<string, Pattern>();
  #order = 0;

  add(phrase: string, sense: Sense): void {
    const slots = compileSlots(phrase);
    if (slots.length === 0) return;
    const key = slots.map(slotKey).join(' ');
    let pattern = this.#patterns.get(key);
    if (pattern === undefined) {
      const literals = slots.filter((s) => s.t !== 'gap').length;
      pattern = { slots, literals, senses: [], order: this.#order++ };
      this.#patterns.set(key, pattern);
    }
    const same = pattern.senses.some((s) => JSON.stringify(s) === JSON.stringify(sense));
    if (!same) pattern.senses.push(sense);
  }

  build(): PassIndex {
    type MutableBucket = { bySecondWord: Map<string, Pattern[]>; bySecondLower: Map<string, Pattern[]>; rest: Pattern[] };
    const byWord = new Map<string, MutableBucket>();
    const byLower = new Map<string, MutableBucket>();
    const numeric: Pattern[] = [];
    const money: Pattern[] = [];
    const push = (map: Map<string, Pattern[]>, k: string, p: Pattern): void => {
      const list = map.get(k);
      if (list === undefined) map.set(k, [p]);
      else list.push(p);
    };
    const addTo = (map: Map<string, MutableBucket>, k: string, p: Pattern): void => {
      let bucket = map.get(k);
      if (bucket === undefined) {
        bucket = { bySecondWord: new Map(), bySecondLower: new Map(), rest: [] };
        map.set(k, bucket);
      }
      const second = p.slots[1];
      if (second?.t === 'word') push(bucket.bySecondWord, second.norm, p);
      else if (second?.t === 'lit' || second?.t === 'exact') push(bucket.bySecondLower, second.lower, p);
      else bucket.rest.push(p);
    };
    for (const p of this.#patterns.values()) {
      const first = p.slots[0];
      if (first === undefined) continue;
      if (first.t === 'num') numeric.push(p);
      else if (first.t === 'money') money.push(p);
      else if (first.t === 'word') addTo(byWord, first.norm, p);
      else if (first.t !== 'gap') addTo(byLower, first.lower, p);
    }
    return { byWord, byLower, numeric, money };
  }
}

export const SPECIFIC_VALUE = 1.5;

/** Build the matcher for a vocabulary. Pure; the result is immutable in use. */
export function compileLexicon(vocabulary: Vocabulary): Lexicon {
  const mask = new PassBuilder();
  const cue = new PassBuilder();
  const sentiment = new PassBuilder();

  for (const p of vocabulary.ignore) mask.add(p, { kind: 'ignore' });
  for (const p of vocabulary.otherParty) mask.add(p, { kind: 'otherParty' });
  for (const p of vocabulary.priorProblem) mask.add(p, { kind: 'priorProblem' });
  for (const p of vocabulary.contrast.but) mask.add(p, { kind: 'contrastBut' });
  for (const p of vocabulary.contrast.although) mask.add(p, { kind: 'contrastAlthough' });

  for (const aspect of ASPECT_IDS) {
    const a = vocabulary.aspects[aspect];
    for (const p of a.cues) cue.add(p, { kind: 'cue', aspect, tier: 0 });
    for (const p of a.weakCues) cue.add(p, { kind: 'cue', aspect, tier: 1 });
    for (const p of a.genericCues) cue.add(p, { kind: 'cue', aspect, tier: 2 });
    for (const p of a.positive) sentiment.add(p, { kind: 'aspectSentiment', aspect, value: SPECIFIC_VALUE });
    for (const p of a.negative) sentiment.add(p, { kind: 'aspectSentiment', aspect, value: -SPECIFIC_VALUE });
  }
  const s = vocabulary.sentiment;
  for (const p of s.positive) sentiment.add(p, { kind: 'sentiment', value: 1 });
  for (const p of s.negative) sentiment.add(p, { kind: 'sentiment', value: -1 });
  for (const p of s.weakPositive) sentiment.add(p, { kind: 'sentiment', value: 0.5 });
  for (const p of s.weakNegative) sentiment.add(p, { kind: 'sentiment', value: -0.5 });
  for (const p of vocabulary.negators) sentiment.add(p, { kind: 'negator' });
  for (const p of vocabulary.broadNegators) sentiment.add(p, { kind: 'broadNegator' });
  for (const p of vocabulary.intensifiers) sentiment.add(p, { kind: 'intensifier' });
  for (const p of vocabulary.diminishers) sentiment.add(p, { kind: 'diminisher' });
  for (const p of vocabulary.hedges) sentiment.add(p, { kind: 'hedge' });
  for (const p of vocabulary.counterfactuals) sentiment.add(p, { kind: 'counterfactual' });
  for (const p of vocabulary.remedies) sentiment.add(p, { kind: 'remedy' });

  return { mask: mask.build(), cue: cue.build(), sentiment: sentiment.build() };
}

function matchFrom(
  tokens: readonly Token[],
  blocked: readonly boolean[] | null,
  slots: readonly Slot[],
  si: number,
  ti: number,
  lits: number[],
): number {
  if (si === slots.length) return ti;
  const slot = slots[si];
  if (slot === undefined) return -1;
  switch (slot.t) {
    case 'gap': {
      for (let skip = 0; skip <= MAX_GAP; skip += 1) {
        const pos = ti + skip;
        if (pos > tokens.length) break;
        if (skip > 0 && tokens[pos - 1]?.kind === 'punct') break;
        const mark = lits.length;
        const end = matchFrom(tokens, blocked, slots, si + 1, pos, lits);
        if (end >= 0) return end;
        lits.length = mark;
      }
      return -1;
    }
    case 'num': {
      for (let take = 2; take >= 1; take -= 1) {
        let ok = true;
        for (let k = 0; k < take; k += 1) {
          const t = tokens[ti + k];
          if (t === undefined || !t.numeric || blocked?.[ti + k] === true) ok = false;
        }
        if (!ok) continue;
        const mark = lits.length;
        for (let k = 0; k < take; k += 1) lits.push(ti + k);
        const end = matchFrom(tokens, blocked, slots, si + 1, ti + take, lits);
        if (end >= 0) return end;
        lits.length = mark;
      }
      return -1;
    }
    default: {
      const t = tokens[ti];
      if (t === undefined || blocked?.[ti] === true) return -1;
      const ok =
        slot.t === 'word'
          ? t.kind === 'word' && t.norm === slot.norm
          : slot.t === 'lit' || slot.t === 'exact'
            ? t.lower === slot.lower
            : t.kind === 'money';
      if (!ok) return -1;
      lits.push(ti);
      const end = matchFrom(tokens, blocked, slots, si + 1, ti + 1, lits);
      if (end < 0) lits.pop();
      return end;
    }
  }
}

function slotAccepts(slot: Slot, t: Token | undefined): boolean {
  if (t === undefined) return false;
  switch (slot.t) {
    case 'word':
      return t.kind === 'word' && t.norm === slot.norm;
    case 'lit':
    case 'exact':
      return t.lower === slot.lower;
    case 'num':
      return t.numeric;
    case 'money':
      return t.kind === 'money';
    default:
      return true;
  }
}

/** Cheap pre-check on the second slot, before the backtracking matcher. */
function cannotStartAt(pattern: Pattern, tokens: readonly Token[], i: number): boolean {
  const first = pattern.slots[0];
  const second = pattern.slots[1];
  if (first === undefined || second === undefined || second.t === 'gap') return false;
  if (slotAccepts(second, tokens[i + 1])) return false;
  return !(first.t === 'num' && slotAccepts(second, tokens[i + 2]));
}

/**
 * All non-overlapping matches of one pass: candidates are ranked by number of literal tokens
 * (longest first), then shorter span, then earlier start, then vocabulary order. Tokens in
 * `blocked` cannot be matched by literal slots.
 */
export function findMatches(index: PassIndex, tokens: readonly Token[], blocked: readonly boolean[] | null): Match[] {
  const candidates: Match[] = [];
  const lists: (readonly Pattern[])[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i];
    if (t === undefined || blocked?.[i] === true) continue;
    const next = tokens[i + 1];
    const wordBucket = t.kind === 'word' ? index.byWord.get(t.norm) : undefined;
    const lowerBucket = index.byLower.get(t.lower);
    lists.length = 0;
    for (const bucket of [wordBucket, lowerBucket]) {
      if (bucket === undefined) continue;
      lists.push(bucket.rest);
      if (next === undefined) continue;
      if (next.kind === 'word') {
        const l = bucket.bySecondWord.get(next.norm);
        if (l !== undefined) lists.push(l);
      }
      const l = bucket.bySecondLower.get(next.lower);
      if (l !== undefined) lists.push(l);
    }
    if (t.numeric) lists.push(index.numeric);
    if (t.kind === 'money') lists.push(index.money);
    for (const list of lists) {
      for (const pattern of list) {
        if (cannotStartAt(pattern, tokens, i)) continue;
        const lits: number[] = [];
        const end = matchFrom(tokens, blocked, pattern.slots, 0, i, lits);
        if (end >= 0) candidates.push({ pattern, start: i, end, literals: lits });
      }
    }
  }
  candidates.sort(
    (a, b) =>
      b.pattern.literals - a.pattern.literals ||
      a.end - a.start - (b.end - b.start) ||
      a.start - b.start ||
      a.pattern.order - b.pattern.order,
  );
  const taken = new Array<boolean>(tokens.length).fill(false);
  const accepted: Match[] = [];
  for (const c of candidates) {
    if (c.literals.some((p) => taken[p] === true)) continue;
    for (const p of c.literals) taken[p] = true;
    accepted.push(c);
  }
  accepted.sort((a, b) => a.start - b.start || a.end - b.end);
  return accepted;
}
