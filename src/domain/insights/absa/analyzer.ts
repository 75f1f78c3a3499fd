/**
 * Sentence-level aspect-based sentiment analysis with rules and a lexicon.
 *
 * Pipeline for one sentence:
 *  1. tokenise; find "ignore" phrases (masked), contrast markers and other-party markers;
 *  2. find aspect cues, then sentiment phrases, negators, intensifiers, diminishers, hedges;
 *  3. cut the sentence into segments at contrast words and strong punctuation, and segments
 *     into clauses (", and ...", "and they ...", dashes); the part after "but" outweighs the
 *     part before it (× 0.3), an "although"/"except" part is subordinate (× 0.5);
 *  4. give each sentiment phrase a value: ±1 general (±0.5 weak, ±1.5 aspect-specific), × 1.5 after an
 *     intensifier, × 0.5 after a diminisher, × −0.8 when a negator precedes it within a few
 *     tokens of the same clause, × 0.3 in a hedged clause; drop it if it is about another party;
 *  5. attach: an aspect-specific phrase to its aspect (or to the aspect of the cue it directly
 *     modifies, "cheap shingles"); a general phrase to every aspect in its clause (or, in a
 *     clause with no aspect, to the nearest clause of the same segment that has one);
 *  6. score = raw / (1 + |raw|); |score| < 0.25 is neutral.
 */
import { ASPECT_IDS } from '../../schemas/aspects.ts';
import type { AspectId, Sentiment } from '../../schemas/aspects.ts';
import { compileLexicon, findMatches, SPECIFIC_VALUE } from './lexicon.ts';
import type { Lexicon, Match, Sense } from './lexicon.ts';
import { governingCounterfactual, isRemedied, polarityOf, quoteKinds, REPORTED, SCARE_QUOTE } from './modality.ts';
import { splitSentences } from './sentences.ts';
import { createStemmer, tokenize } from './tokenize.ts';
import type { Token } from './tokenize.ts';
import { defaultVocabulary } from './vocabulary.ts';
import type { Vocabulary } from './vocabulary.ts';

export interface AspectLabel {
  readonly aspect: AspectId;
  readonly sentiment: Sentiment;
  readonly score: number;
  /** How sure the analyzer is of this (aspect, sentiment) label, in [0, 1]; see README "Confidence". */
  readonly confidence: number;
}

export interface SentenceResult {
  readonly text: string;
  readonly labels: AspectLabel[];
  readonly overall: Sentiment;
  readonly score: number;
}

export interface TextAspect {
  readonly aspect: AspectId;
  readonly sentiment: Sentiment;
  readonly score: number;
  readonly confidence: number;
  readonly excerpt: string;
}

export interface TextResult {
  readonly sentences: SentenceResult[];
  readonly aspects: TextAspect[];
  readonly overall: Sentiment;
  readonly score: number;
}

export interface Analyzer {
  analyzeSentence(text: string): SentenceResult;
  analyzeText(text: string): TextResult;
}

/** What the rules saw in a sentence, for the learned layer that stacks on them (model.ts). */
export interface RuleTrace {
  readonly result: SentenceResult;
  readonly tokens: readonly Token[];
  /** The strongest cue tier (0 cue, 1 weak cue, 2 generic) of each aspect cued in the sentence. */
  readonly cueTiers: ReadonlyMap<AspectId, number>;
  /** Where each aspect is cued or named by one of its own opinion phrases: token positions. */
  readonly aspectAt: ReadonlyMap<AspectId, readonly number[]>;
  /** Whether a clause describes a problem from before the job or caused by someone or something else. */
  readonly priorProblem: boolean;
}

export interface RuleAnalyzer extends Analyzer {
  traceSentence(text: string): RuleTrace;
}

const NEGATION_WINDOW = 3;
const BROAD_NEGATION_WINDOW = 6;
const MODIFIER_WINDOW = 2;
const NEGATION_FACTOR = -0.8;
const INTENSIFIER_FACTOR = 1.5;
const DIMINISHER_FACTOR = 0.5;
const HEDGE_FACTOR = 0.3;
const BUT_DISCOUNT = 0.3;
const SUBORDINATE_DISCOUNT = 0.5;
const NEUTRAL_BAND = 0.25;
const NEUTRAL_RULE_CONFIDENCE = 0.24;
const EXCERPT_MAX = 200;

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

interface Segment {
  readonly start: number;
  readonly end: number;
  weight: number;
}

interface Clause {
  readonly start: number;
  readonly end: number;
  readonly segment: number;
}

interface SentimentItem {
  readonly match: Match;
  readonly clause: number;
  readonly value: number; // after modifiers, before segment weight
  /** The aspect it is about, or null for general sentiment. */
  aspect: AspectId | null;
  readonly specificSenses: readonly { aspect: AspectId; value: number }[];
  readonly general: number | null;
}

export function round3(x: number): number {
  const r = Math.round(x * 1000) / 1000;
  return Object.is(r, -0) ? 0 : r;
}

export function squash(raw: number): number {
  return raw / (1 + Math.abs(raw));
}

/**
 * The rules' confidence in a label: its margin. A polar label's |score| (0.25–1), and for a neutral
 * label the fixed share of neutral rule labels that were right on train.jsonl (0.24, measured).
 */
export function ruleConfidence(score: number): number {
  return Math.abs(score) >= NEUTRAL_BAND ? round3(Math.abs(score)) : NEUTRAL_RULE_CONFIDENCE;
}

export function toSentiment(score: number): Sentiment {
  if (score >= NEUTRAL_BAND) return 'positive';
  if (score <= -NEUTRAL_BAND) return 'negative';
  return 'neutral';
}

/** Trim and cut at a word boundary to at most `max` characters, ending with "…" when cut. */
export function excerpt(text: string, max = EXCERPT_MAX): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t.length <= max) return t;
  const head = t.slice(0, max - 1);
  const cut = head.lastIndexOf(' ');
  return `${(cut > max / 2 ? head.slice(0, cut) : head).replace(/[\s,;:.—-]+$/u, '')}…`;
}

function firstSense<K extends Sense['kind']>(m: Match, kind: K): Extract<Sense, { kind: K }> | undefined {
  return m.pattern.senses.find((s): s is Extract<Sense, { kind: K }> => s.kind === kind);
}

function hasSense(m: Match, kind: Sense['kind']): boolean {
  return m.pattern.senses.some((s) => s.kind === kind);
}

function buildSegments(tokens: readonly Token[], masks: readonly Match[]): Segment[] {
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

function buildClauses(tokens: readonly Token[], segments: readonly Segment[]): Clause[] {
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

function foreignScopes(tokens: readonly Token[], masks: readonly Match[], clauses: readonly Clause[]): boolean[] {
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

function hasPunctBetween(tokens: readonly Token[], from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (tokens[i]?.kind === 'punct') return true;
  return false;
}

function hasStopBetween(tokens: readonly Token[], from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const t = tokens[i];
    if (t !== undefined && (t.kind === 'punct' || SCOPE_STOP.has(t.lower))) return true;
  }
  return false;
}

/** Create an analyzer for a vocabulary (default: the built-in roofing vocabulary). */
export function createRuleAnalyzer(vocabulary: Vocabulary = defaultVocabulary): RuleAnalyzer {
  const lexicon: Lexicon = compileLexicon(vocabulary);
  const stemmer = createStemmer();

  function traceSentence(text: string): RuleTrace {
    const tokens = tokenize(text, stemmer);
    const n = tokens.length;
    const masks = findMatches(lexicon.mask, tokens, null);
    const blocked = new Array<boolean>(n).fill(false);
    for (const m of masks) if (hasSense(m, 'ignore')) for (const p of m.literals) blocked[p] = true;

    const segments = buildSegments(tokens, masks);
    const clauses = buildClauses(tokens, segments);
    const foreign = foreignScopes(tokens, masks, clauses);
    const clauseAt = new Array<number>(n).fill(-1);
    for (const [k, c] of clauses.entries()) for (let i = c.start; i < c.end; i += 1) clauseAt[i] = k;
    const clauseOf = (pos: number): number => clauseAt[pos] ?? -1;
    // Clauses about a problem from before the job ("shingles off after the storm", "leaking in
    // three places before we called"): their negative opinions are not about this business. A
    // marker that opens its clause ("…, which is why we called", "… when we moved in") speaks of
    // the clause before it as well.
    const priorClauses = new Set<number>();
    for (const m of masks) {
      if (!hasSense(m, 'priorProblem')) continue;
      const k = clauseOf(m.start);
      priorClauses.add(k);
      const clause = clauses[k];
      const before = clauses[k - 1];
      const opensClause = clause !== undefined && (m.start === clause.start || (m.start === clause.start + 1 && tokens[clause.start]?.kind === 'word'));
      if (opensClause && before !== undefined && before.segment === clause.segment) priorClauses.add(k - 1);
    }

    const cueMatches = findMatches(lexicon.cue, tokens, blocked).filter((m) => !foreign[m.start]);
    // Words inside a longer compound cue ("drip edge", "clean up", "final bill") are not opinions.
    const compound = new Array<number>(n).fill(0);
    for (const m of cueMatches) if (m.pattern.literals > 1) for (const p of m.literals) compound[p] = m.pattern.literals;
    const sentMatches = findMatches(lexicon.sentiment, tokens, blocked).filter(
      (m) => !m.literals.every((p) => (compound[p] ?? 0) > m.pattern.literals),
    );

    // --- modifiers -------------------------------------------------------------------
    const negators: { m: Match; window: number }[] = [];
    const intens: { m: Match; factor: number }[] = [];
    const hedgedClauses = new Set<number>();
    const counterfactuals: Match[] = [];
    const remedies: Match[] = [];
    const phrases: Match[] = [];
    for (const m of sentMatches) {
      const kinds = m.pattern.senses.map((s) => s.kind);
      // A remedy may also be an opinion ("fixed"): it is both.
      if (kinds.includes('remedy')) remedies.push(m);
      if (kinds.includes('aspectSentiment') || kinds.includes('sentiment')) phrases.push(m);
      else if (kinds.includes('negator')) negators.push({ m, window: NEGATION_WINDOW });
      else if (kinds.includes('broadNegator')) negators.push({ m, window: BROAD_NEGATION_WINDOW });
      else if (kinds.includes('intensifier')) intens.push({ m, factor: INTENSIFIER_FACTOR });
      else if (kinds.includes('diminisher')) intens.push({ m, factor: DIMINISHER_FACTOR });
      else if (kinds.includes('hedge')) hedgedClauses.add(clauseOf(m.start));
      else if (kinds.includes('counterfactual')) counterfactuals.push(m);
    }
    const quoted = quoteKinds(tokens);
    const sameClause = (a: number, b: number): boolean => clauseOf(a) === clauseOf(b);
    const usedCounterfactuals = new Set<Match>();

    // --- cues per clause -------------------------------------------------------------
    const strongCue: Set<AspectId>[] = clauses.map(() => new Set<AspectId>());
    const weakCue: Set<AspectId>[] = clauses.map(() => new Set<AspectId>());
    const genericCue: Set<AspectId>[] = clauses.map(() => new Set<AspectId>());
    const cueStarts = new Map<number, AspectId[]>();
    for (const m of cueMatches) {
      const k = clauseOf(m.start);
      if (k < 0) continue;
      for (const s of m.pattern.senses) {
        if (s.kind !== 'cue') continue;
        const target = s.tier === 0 ? strongCue[k] : s.tier === 1 ? weakCue[k] : genericCue[k];
        target?.add(s.aspect);
        const list = cueStarts.get(m.start) ?? [];
        if (!list.includes(s.aspect)) list.push(s.aspect);
        cueStarts.set(m.start, list);
      }
    }

    // --- sentiment items -------------------------------------------------------------
    const items: SentimentItem[] = [];
    for (const m of phrases) {
      if (foreign[m.start] || quoted[m.start] === REPORTED) continue;
      const k = clauseOf(m.start);
      if (k < 0) continue;
      const polarity = polarityOf(m);
      if (polarity < 0 && isRemedied(m, remedies, tokens, sameClause)) continue;
      let value = 1;
      // Nearest intensifier/diminisher just before.
      let bestMod: { m: Match; factor: number } | undefined;
      for (const x of intens) {
        if (x.m.end <= m.start && m.start - x.m.end <= MODIFIER_WINDOW && !hasPunctBetween(tokens, x.m.end, m.start)) {
          if (bestMod === undefined || x.m.end > bestMod.m.end) bestMod = x;
        }
      }
      if (bestMod !== undefined) value *= bestMod.factor;
      for (const { m: g, window } of negators) {
        if (g.end <= m.start && m.start - g.end <= window && clauseOf(g.start) === k && !hasStopBetween(tokens, g.end, m.start)) {
          value *= NEGATION_FACTOR;
          break;
        }
      }
      // Under a counterfactual ("should have been done right", "wish they had called") a
      // positive opinion is what did not happen; a negative one is a complaint as it stands.
      const counterfactual = governingCounterfactual(m, counterfactuals, sameClause);
      if (counterfactual !== undefined) {
        usedCounterfactuals.add(counterfactual);
        if (polarity * value > 0) value *= NEGATION_FACTOR;
      }
      // A scare-quoted positive word is ironic: their "fix".
      if (quoted[m.start] === SCARE_QUOTE && polarity > 0) value = -Math.abs(value);
      if (hedgedClauses.has(k)) value *= HEDGE_FACTOR;
      if (priorClauses.has(k) && polarity * value < 0) continue;
      const specificSenses: { aspect: AspectId; value: number }[] = [];
      let general: number | null = null;
      for (const s of m.pattern.senses) {
        if (s.kind === 'aspectSentiment') specificSenses.push({ aspect: s.aspect, value: s.value });
        else if (s.kind === 'sentiment' && general === null) general = s.value;
      }
      items.push({ match: m, clause: k, value, aspect: null, specificSenses, general });
    }
    // A counterfactual with no opinion after it is itself a complaint: "should have gone with
    // someone else", "they were supposed to start Monday".
    for (const c of counterfactuals) {
      const k = clauseOf(c.start);
      if (usedCounterfactuals.has(c) || k < 0 || foreign[c.start] || quoted[c.start] === REPORTED) continue;
      items.push({ match: c, clause: k, value: hedgedClauses.has(k) ? HEDGE_FACTOR : 1, aspect: null, specificSenses: [], general: -1 });
    }
    // A repair claimed in scare quotes is disputed: they "resealed" it.
    for (const r of remedies) {
      const k = clauseOf(r.start);
      if (k < 0 || quoted[r.start] !== SCARE_QUOTE || items.some((it) => it.match === r)) continue;
      items.push({ match: r, clause: k, value: 1, aspect: null, specificSenses: [], general: -1 });
    }

    // Resolve which aspect each aspect-specific phrase is about.
    const implied: Set<AspectId>[] = clauses.map(() => new Set<AspectId>());
    const itemValue = (it: SentimentItem): number => {
      if (it.aspect !== null) {
        const sense = it.specificSenses.find((s) => s.aspect === it.aspect);
        return it.value * (sense?.value ?? Math.sign(it.specificSenses[0]?.value ?? it.general ?? 0) * SPECIFIC_VALUE);
      }
      return it.value * (it.general ?? it.specificSenses[0]?.value ?? 0);
    };
    const sentenceStrong = new Set<AspectId>(strongCue.flatMap((set) => [...set]));
    // Unambiguous aspect phrases first, so that ambiguous ones (also general words, such as
    // "quickly") can see which aspects the clause is already about.
    const ordered = [...items.filter((it) => it.general === null), ...items.filter((it) => it.general !== null)];
    // True when an unambiguous aspect phrase of the same clause is linked to `it` without a
    // coordination in between ("called us back within an hour", but not "polite and efficient").
    const governedByOpinion = (it: SentimentItem): boolean =>
      items.some((other) => {
        if (other === it || other.general !== null || other.aspect === null || other.clause !== it.clause) return false;
        const [from, to] = other.match.end <= it.match.start ? [other.match.end, it.match.start] : [it.match.end, other.match.start];
        for (let i = from; i < to; i += 1) {
          const t = tokens[i];
          if (t !== undefined && (t.kind === 'punct' || t.lower === 'and' || t.lower === 'or' || t.lower === 'but')) return false;
        }
        return true;
      });
    for (const it of ordered) {
      if (it.specificSenses.length === 0) continue;
      const strong = strongCue[it.clause] ?? new Set<AspectId>();
      const weak = weakCue[it.clause] ?? new Set<AspectId>();
      // (1) it directly modifies a cue ("cheap shingles", "fast response"): it is about that cue's aspect.
      let next = it.match.end;
      while (next < n && intens.some((x) => x.m.start === next)) next += 1;
      const modified = it.match.pattern.literals === 1 ? cueStarts.get(next) : undefined;
      const own = modified === undefined ? undefined : it.specificSenses.find((s) => modified.includes(s.aspect));
      if (modified !== undefined && clauseOf(next) === it.clause && (own !== undefined || it.general !== null)) {
        // Its own sense for that aspect ("cheap" → materials), or else its general reading.
        it.aspect = own?.aspect ?? null;
      } else {
        // (2) a sense whose aspect is cued in the clause (strong cues first, then weak ones),
        // or else strongly cued elsewhere in the sentence.
        const cued =
          it.specificSenses.find((s) => strong.has(s.aspect)) ??
          it.specificSenses.find((s) => weak.has(s.aspect)) ??
          (it.general === null || strong.size === 0
            ? it.specificSenses.find((s) => sentenceStrong.has(s.aspect))
            : undefined);
        if (cued !== undefined) it.aspect = cued.aspect;
        // (3) a general reading when the clause is clearly about other aspects.
        else if (it.general !== null && (strong.size > 0 || governedByOpinion(it))) it.aspect = null;
        // (4) otherwise the phrase signals its own (first) aspect.
        else it.aspect = it.specificSenses[0]?.aspect ?? null;
      }
      if (it.aspect !== null) implied[it.clause]?.add(it.aspect);
    }

    // --- aspects admitted per clause -------------------------------------------------
    const generalIn = clauses.map(() => [] as SentimentItem[]);
    for (const it of items) if (it.aspect === null) generalIn[it.clause]?.push(it);
    // Cues (strong, then weak when nothing else is cued) and implied aspects.
    const segmentStrong = segments.map(() => new Set<AspectId>());
    for (const [k, c] of clauses.entries()) for (const a of strongCue[k] ?? []) segmentStrong[c.segment]?.add(a);
    const cued: Set<AspectId>[] = clauses.map((c, k) => {
      const set = new Set<AspectId>(strongCue[k] ?? []);
      // A weak cue yields to a strong cue anywhere in its segment or to an opinion phrase of
      // another aspect in its clause.
      const definite = new Set<AspectId>([...(segmentStrong[c.segment] ?? []), ...(implied[k] ?? [])]);
      for (const a of weakCue[k] ?? []) if (![...definite].some((d) => d !== a)) set.add(a);
      return set;
    });
    const hasTarget = (k: number): boolean =>
      (cued[k]?.size ?? 0) > 0 || (implied[k]?.size ?? 0) > 0 || (genericCue[k]?.size ?? 0) > 0;

    // Orphan general sentiment: a clause with opinion but nothing to attach it to lends it to
    // the nearest clause of the same segment that has something ("done in a day and it looks great").
    const borrowed = clauses.map(() => [] as SentimentItem[]);
    for (const [k, c] of clauses.entries()) {
      if (hasTarget(k) || (generalIn[k]?.length ?? 0) === 0) continue;
      let target = -1;
      for (let j = k - 1; j >= 0 && target < 0; j -= 1) if (clauses[j]?.segment === c.segment && hasTarget(j)) target = j;
      for (let j = k + 1; j < clauses.length && target < 0; j += 1) if (clauses[j]?.segment === c.segment && hasTarget(j)) target = j;
      // Nothing in its own segment: the nearest earlier clause ("the adjuster was difficult, but
      // they handled him like pros").
      if (!clauses.some((cl, j) => cl.segment === c.segment && hasTarget(j))) {
        for (let j = k - 1; j >= 0 && target < 0; j -= 1) if (hasTarget(j)) target = j;
      }
      if (target >= 0) borrowed[target]?.push(...(generalIn[k] ?? []));
    }

    // Generic targets ("roof", "crew") count only with a general opinion and no other cue.
    const admitted: Set<AspectId>[] = clauses.map((_, k) => {
      const set = new Set<AspectId>([...(cued[k] ?? []), ...(implied[k] ?? [])]);
      const opinion = (generalIn[k]?.length ?? 0) + (borrowed[k]?.length ?? 0) > 0;
      if (set.size === 0 && opinion) for (const a of genericCue[k] ?? []) set.add(a);
      return set;
    });

    // --- scores ----------------------------------------------------------------------
    // Segment weights only arbitrate between segments: an aspect mentioned in a subordinate
    // part alone keeps its full strength.
    const aspectRaw = new Map<AspectId, number>();
    const aspectMaxWeight = new Map<AspectId, number>();
    const weightOf = (it: SentimentItem): number => segments[clauses[it.clause]?.segment ?? 0]?.weight ?? 1;
    for (const [k, c] of clauses.entries()) {
      const general = [...(generalIn[k] ?? []), ...(borrowed[k] ?? [])];
      for (const a of admitted[k] ?? []) {
        const own = items.filter((it) => it.clause === k && it.aspect === a);
        let raw = 0;
        let maxWeight = aspectMaxWeight.get(a) ?? 0;
        for (const it of [...general, ...own]) {
          raw += itemValue(it) * weightOf(it);
          maxWeight = Math.max(maxWeight, weightOf(it));
        }
        if (general.length + own.length === 0) maxWeight = Math.max(maxWeight, segments[c.segment]?.weight ?? 1);
        aspectRaw.set(a, (aspectRaw.get(a) ?? 0) + raw);
        aspectMaxWeight.set(a, maxWeight);
      }
    }
    for (const [a, raw] of aspectRaw) aspectRaw.set(a, raw / (aspectMaxWeight.get(a) || 1));
    let overallRaw = 0;
    for (const it of items) overallRaw += itemValue(it) * weightOf(it);

    let labels: AspectLabel[] = [];
    for (const aspect of ASPECT_IDS) {
      const raw = aspectRaw.get(aspect);
      if (raw === undefined) continue;
      const score = round3(squash(raw));
      labels.push({ aspect, sentiment: toSentiment(score), score, confidence: ruleConfidence(score) });
    }
    // In a sentence that expresses opinions, a bare mention of another aspect is incidental
    // ("nobody returned my emails after the deposit cleared"): keep only the opinionated ones.
    if (labels.some((l) => l.sentiment !== 'neutral')) labels = labels.filter((l) => l.sentiment !== 'neutral');
    const score = round3(squash(overallRaw));
    const cueTiers = new Map<AspectId, number>();
    for (const m of cueMatches) {
      for (const sense of m.pattern.senses) {
        if (sense.kind === 'cue' && sense.tier < (cueTiers.get(sense.aspect) ?? 3)) cueTiers.set(sense.aspect, sense.tier);
      }
    }
    const aspectAt = new Map<AspectId, number[]>();
    const at = (aspect: AspectId, pos: number): void => {
      const list = aspectAt.get(aspect) ?? [];
      list.push(pos);
      aspectAt.set(aspect, list);
    };
    for (const [pos, aspects] of cueStarts) for (const a of aspects) at(a, pos);
    for (const it of items) if (it.aspect !== null) at(it.aspect, it.match.start);
    return { result: { text, labels, overall: toSentiment(score), score }, tokens, cueTiers, aspectAt, priorProblem: priorClauses.size > 0 };
  }

  function analyzeSentence(text: string): SentenceResult {
    return traceSentence(text).result;
  }

  return { analyzeSentence, analyzeText: (text) => analyzeTextWith(analyzeSentence, text), traceSentence };
}

/** Analyse a review: each sentence with `analyzeSentence`, and the overall from their scores. */
export function analyzeTextWith(analyzeSentence: (text: string) => SentenceResult, text: string): TextResult {
  const sentences = splitSentences(text).map(analyzeSentence);
  let raw = 0;
  // Undo the squash to add sentence evidence on the raw scale.
  for (const s of sentences) raw += s.score / (1 - Math.min(Math.abs(s.score), 0.999));
  const score = round3(squash(raw));
  return { sentences, aspects: textAspects(sentences), overall: toSentiment(score), score };
}

/** The aspects of a text: each label of each sentence, in order, with its sentence as the excerpt. */
export function textAspects(sentences: readonly SentenceResult[]): TextAspect[] {
  const aspects: TextAspect[] = [];
  for (const s of sentences) {
    const ex = excerpt(s.text);
    for (const l of s.labels) aspects.push({ aspect: l.aspect, sentiment: l.sentiment, score: l.score, confidence: l.confidence, excerpt: ex });
  }
  return aspects;
}
