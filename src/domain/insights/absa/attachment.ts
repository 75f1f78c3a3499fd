/**
 * Steps 5 and 6 of the analyzer: which aspect each opinion phrase is about, which
 * aspects each clause admits, and the score of each aspect and of the sentence.
 */
import { ASPECT_IDS } from '../../schemas/aspects.ts';
import type { AspectId } from '../../schemas/aspects.ts';
import type { Clause, Segment } from './clauses.ts';
import { SPECIFIC_VALUE } from './lexicon.ts';
import type { Match } from './lexicon.ts';
import { round3, ruleConfidence, squash, toSentiment } from './results.ts';
import type { AspectLabel } from './results.ts';
import type { Token } from './tokenize.ts';

/** An opinion of the sentence (a phrase, or a counterfactual or disputed repair standing for one). */
export interface SentimentItem {
  readonly match: Match;
  readonly clause: number;
  readonly value: number; // after modifiers, before segment weight
  /** The aspect it is about, or null for general sentiment. */
  aspect: AspectId | null;
  readonly specificSenses: readonly { aspect: AspectId; value: number }[];
  readonly general: number | null;
}

/** The aspects cued in each clause, by tier, and the aspects cued at each token position. */
export interface ClauseCues {
  readonly strong: readonly Set<AspectId>[];
  readonly weak: readonly Set<AspectId>[];
  readonly generic: readonly Set<AspectId>[];
  readonly starts: ReadonlyMap<number, AspectId[]>;
}

/** A sentence as the analyzer cut it. */
export interface SentenceParts {
  readonly tokens: readonly Token[];
  readonly segments: readonly Segment[];
  readonly clauses: readonly Clause[];
  readonly clauseOf: (pos: number) => number;
  /** Whether an intensifier or diminisher starts at a token position. */
  readonly modifierAt: (pos: number) => boolean;
}

/** An item's signed strength for the aspect it is about, or as general sentiment. */
function itemValue(it: SentimentItem): number {
  if (it.aspect !== null) {
    const sense = it.specificSenses.find((s) => s.aspect === it.aspect);
    return it.value * (sense?.value ?? Math.sign(it.specificSenses[0]?.value ?? it.general ?? 0) * SPECIFIC_VALUE);
  }
  return it.value * (it.general ?? it.specificSenses[0]?.value ?? 0);
}

/**
 * Sets the aspect of each item with aspect-specific senses (null where its general reading
 * applies); gives the aspects that the items imply in each clause.
 */
export function attachAspects(items: readonly SentimentItem[], cues: ClauseCues, { tokens, clauses, clauseOf, modifierAt }: SentenceParts): Set<AspectId>[] {
  const n = tokens.length;
  const { strong: strongCue, weak: weakCue, starts: cueStarts } = cues;
  const implied: Set<AspectId>[] = clauses.map(() => new Set<AspectId>());
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
    while (next < n && modifierAt(next)) next += 1;
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
  return implied;
}

/** The labels of a sentence's aspects, in aspect order, and the sentence's overall score. */
export function scoreAspects(
  items: readonly SentimentItem[],
  implied: readonly Set<AspectId>[],
  cues: ClauseCues,
  { segments, clauses }: SentenceParts,
): { labels: AspectLabel[]; score: number } {
  const { strong: strongCue, weak: weakCue, generic: genericCue } = cues;
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
  return { labels, score };
}
