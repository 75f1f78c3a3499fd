/**
 * How a sentence is cut (step 3 of the analyzer): segments at contrast words and strong
 * punctuation, weighted so that the part after "but" outweighs the part before it;
 * clauses within segments; and the tokens that speak of another party.
 */
import type { Match, Sense } from './lexicon.ts';
import type { Token } from './tokenize.ts';

const BUT_DISCOUNT = 0.3;
const SUBORDINATE_DISCOUNT = 0.5;

/** Punctuation that ends a segment (contrast words also do). */
const SEGMENT_PUNCT = new Set([';', ':', '(', ')', '.', '!', '?', '[', ']']);
/** Words that start a new clause after a comma. */
const AFTER_COMMA = new Set([
  'and', 'so', 'which', 'who', 'then', 'plus', 'because', 'since', 'as', 'or', 'i', 'we', 'they', 'he',
  'she', 'it', 'you', 'nobody', 'everyone', 'everything', 'there', 'no', 'not', 'never', 'even', 'when',
  'after', 'until', 'if', 'my', 'our', 'their', 'zero',
]);
/** Conjunctions that start a new clause when a subject follows. */
const CLAUSE_CONJ = new Set(['and', 'so', 'because', 'then', 'but', 'or', 'when', 'until', 'after']);
const DETERMINERS = new Set(['the', 'our', 'my', 'their', 'his', 'her', 'this', 'that', 'these', 'those']);
const SUBJECTS = new Set(['i', 'we', 'they', 'he', 'she', 'it', 'you', 'nobody', 'everyone', 'everything', 'there', 'nothing']);
/** Words that end a negator's scope. */
const SCOPE_STOP = new Set(['and', 'but', 'so', 'because', 'which', 'who', 'although', 'though', 'yet']);
const RELATIVE = new Set(['who', 'which', 'that', 'whom', 'whose']);

export interface Segment {
  readonly start: number;
  readonly end: number;
  weight: number;
}

export interface Clause {
  readonly start: number;
  readonly end: number;
  readonly segment: number;
}

export function hasSense(m: Match, kind: Sense['kind']): boolean {
  return m.pattern.senses.some((s) => s.kind === kind);
}

export function buildSegments(tokens: readonly Token[], masks: readonly Match[]): Segment[] {
  const n = tokens.length;
  const contrastAt = new Map<number, { type: 'but' | 'although'; end: number }>();
  for (const m of masks) {
    if (hasSense(m, 'contrastBut')) contrastAt.set(m.start, { type: 'but', end: m.end });
    else if (hasSense(m, 'contrastAlthough')) contrastAt.set(m.start, { type: 'although', end: m.end });
  }
  const raw: { start: number; end: number; type: 'but' | 'although' | null }[] = [];
  let start = 0;
  let type: 'but' | 'although' | null = null;
  for (let i = 0; i < n; i += 1) {
    const c = contrastAt.get(i);
    const t = tokens[i];
    if (c !== undefined) {
      if (i > start) raw.push({ start, end: i, type });
      start = c.end;
      type = c.type;
      i = c.end - 1;
    } else if (t !== undefined && t.kind === 'punct' && SEGMENT_PUNCT.has(t.norm)) {
      if (i > start) raw.push({ start, end: i, type });
      start = i + 1;
      type = null;
    }
  }
  if (start < n) raw.push({ start, end: n, type });

  // A sentence-initial subordinate part ("Although it rained, ...") ends at its first comma.
  const split: typeof raw = [];
  for (const [k, s] of raw.entries()) {
    if (s.type === 'although' && k === 0) {
      let comma = -1;
      for (let i = s.start; i < s.end; i += 1) if (tokens[i]?.norm === ',') { comma = i; break; }
      if (comma > s.start && comma < s.end - 1) {
        split.push({ start: s.start, end: comma, type: 'although' });
        split.push({ start: comma + 1, end: s.end, type: null });
        continue;
      }
    }
    split.push(s);
  }

  const segments: Segment[] = split.map((s) => ({ start: s.start, end: s.end, weight: 1 }));
  for (const [k, s] of split.entries()) {
    if (s.type === 'but') for (let j = 0; j < k; j += 1) { const seg = segments[j]; if (seg) seg.weight *= BUT_DISCOUNT; }
    else if (s.type === 'although') { const seg = segments[k]; if (seg) seg.weight *= SUBORDINATE_DISCOUNT; }
  }
  return segments;
}

export function buildClauses(tokens: readonly Token[], segments: readonly Segment[]): Clause[] {
  const clauses: Clause[] = [];
  for (const [si, seg] of segments.entries()) {
    let start = seg.start;
    for (let i = seg.start; i < seg.end; i += 1) {
      const t = tokens[i];
      const next = tokens[i + 1];
      if (t === undefined) continue;
      let cutAt = -1; // index where the new clause starts
      if (t.norm === '—') cutAt = i + 1;
      else if (t.norm === ',' && next !== undefined && AFTER_COMMA.has(next.lower)) cutAt = i + 1;
      else if (t.kind === 'word' && CLAUSE_CONJ.has(t.lower) && next !== undefined && SUBJECTS.has(next.lower) && i > start) cutAt = i;
      else if (t.lower === 'and' && next !== undefined && DETERMINERS.has(next.lower) && i > start) cutAt = i;
      if (cutAt >= 0) {
        if (i > start) clauses.push({ start, end: i, segment: si });
        start = cutAt;
      }
    }
    if (start < seg.end) clauses.push({ start, end: seg.end, segment: si });
  }
  return clauses;
}

export function foreignScopes(tokens: readonly Token[], masks: readonly Match[], clauses: readonly Clause[]): boolean[] {
  const foreign = new Array<boolean>(tokens.length).fill(false);
  const segEnd = (pos: number): number => {
    // Foreign scope never crosses a segment boundary.
    const c = clauses.find((cl) => pos >= cl.start && pos < cl.end);
    if (c === undefined) return pos + 1;
    let end = c.end;
    for (const cl of clauses) if (cl.segment === c.segment && cl.end > end) end = cl.end;
    return end;
  };
  for (const m of masks) {
    if (!hasSense(m, 'otherParty')) continue;
    const limit = segEnd(m.start);
    let i = m.start;
    while (i < limit) {
      const t = tokens[i];
      if (t !== undefined && t.kind === 'punct' && i > m.start) {
        const next = tokens[i + 1];
        if (t.norm === ',' && next !== undefined && RELATIVE.has(next.lower)) {
          i += 1;
          continue;
        }
        break;
      }
      foreign[i] = true;
      i += 1;
    }
  }
  return foreign;
}

export function hasPunctBetween(tokens: readonly Token[], from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (tokens[i]?.kind === 'punct') return true;
  return false;
}

export function hasStopBetween(tokens: readonly Token[], from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const t = tokens[i];
    if (t !== undefined && (t.kind === 'punct' || SCOPE_STOP.has(t.lower))) return true;
  }
  return false;
}
