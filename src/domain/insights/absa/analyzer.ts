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
 *
 * Steps 1, 2 and 4 are here; step 3 is in clauses.ts, steps 5 and 6 in attachment.ts, and
 * the shapes of the results in results.ts.
 */
import type { AspectId } from '../../schemas/aspects.ts';
import { attachAspects, scoreAspects } from './attachment.ts';
import type { ClauseCues, SentenceParts, SentimentItem } from './attachment.ts';
import { buildClauses, buildSegments, foreignScopes, hasPunctBetween, hasSense, hasStopBetween } from './clauses.ts';
import { compileLexicon, findMatches } from './lexicon.ts';
import type { Lexicon, Match } from './lexicon.ts';
import { governingCounterfactual, isRemedied, polarityOf, quoteKinds, REPORTED, SCARE_QUOTE } from './modality.ts';
import { analyzeTextWith, toSentiment } from './results.ts';
import type { Analyzer, SentenceResult } from './results.ts';
import { createStemmer, tokenize } from './tokenize.ts';
import type { Token } from './tokenize.ts';
import { defaultVocabulary } from './aspect-vocabulary.ts';
import type { Vocabulary } from './aspect-vocabulary.ts';

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

    const cues: ClauseCues = { strong: strongCue, weak: weakCue, generic: genericCue, starts: cueStarts };
    const parts: SentenceParts = { tokens, segments, clauses, clauseOf, modifierAt: (pos) => intens.some((x) => x.m.start === pos) };
    const implied = attachAspects(items, cues, parts);
    const { labels, score } = scoreAspects(items, implied, cues, parts);
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
