/**
 * The learned layer of the analyzer: logistic models over the features of features.ts, stacked
 * on the rules (their labels are features). For each sentence:
 *  - one detector per aspect gives P(the sentence is about it); aspects at or above their
 *    threshold are labelled;
 *  - a polarity model gives P(positive | neutral | negative) for each labelled aspect, from the
 *    sentence's features plus that aspect's reading by the rules; the label is the likeliest;
 *  - an overall model gives the sentence's overall sentiment the same way.
 * A label's `confidence` is P(aspect) × P(its sentiment), both from the models; its `score` is
 * P(positive) − P(negative). The weights come from `npm run train:absa` (train.ts).
 */
import { analyzeTextWith, round3 } from './analyzer.ts';
import type { Analyzer, AspectLabel, RuleAnalyzer, RuleTrace, SentenceResult } from './analyzer.ts';
import { ASPECT_IDS, SENTIMENTS } from './aspects.ts';
import type { AspectId, Sentiment } from './aspects.ts';
import { emitAspectFeatures, emitSentenceFeatures, PAIR_PREFIXES } from './features.ts';
import type { FeatureBlocks, FeatureSink } from './features.ts';
import { sigmoid, type SparseRow } from './logistic.ts';

/** The committed model file (model.json). Weights are rounded; each row lists one feature. */
export interface ModelData {
  readonly format: 1;
  /** Scale of each feature block after L2 normalisation (words, chars, rules, aspect). */
  readonly blockScale: { readonly words: number; readonly chars: number; readonly rules: number; readonly aspect: number };
  /** Per aspect (ASPECT_IDS order): the probability at or above which it is labelled. */
  readonly thresholds: readonly number[];
  /**
   * The likeliest aspect of a sentence is labelled down to this probability even when it is
   * under its threshold: nine labelled sentences in ten are about at least one aspect.
   */
  readonly likeliestFloor: number;
  /** Biases: 10 detector logits, then 3 polarity logits, then 3 overall logits. */
  readonly bias: readonly number[];
  /** Feature → its weights in the same 16 slots as `bias` (omitted slots are 0). */
  readonly weights: Readonly<Record<string, readonly number[]>>;
}

export const DETECTORS = ASPECT_IDS.length;
export const POLARITY_SLOT = DETECTORS;
export const OVERALL_SLOT = DETECTORS + SENTIMENTS.length;
export const SLOTS = OVERALL_SLOT + SENTIMENTS.length;

/**
 * Count the features of each block, L2-normalise each block's counts and scale it, and add them
 * up: a long sentence weighs no more than a short one, and each block keeps its share. Blocks are
 * lists of feature indices (`vectorize` takes feature names).
 */
export function rowFromIndices(blocks: readonly (readonly [readonly number[], number])[]): SparseRow {
  const index: number[] = [];
  const value: number[] = [];
  for (const [indices, scale] of blocks) {
    if (scale === 0 || indices.length === 0) continue;
    const found = Int32Array.from(indices).sort();
    // Runs of equal indices are counts. Blocks never share a feature (their prefixes differ).
    const from = index.length;
    let norm = 0;
    for (let j = 0; j < found.length; ) {
      let end = j + 1;
      while (end < found.length && found[end] === found[j]) end += 1;
      index.push(found[j] as number);
      value.push(end - j);
      norm += (end - j) * (end - j);
      j = end;
    }
    const factor = scale / (Math.sqrt(norm) || 1);
    for (let j = from; j < value.length; j += 1) value[j] = (value[j] as number) * factor;
  }
  return { index: Int32Array.from(index), value: Float64Array.from(value) };
}

/** `rowFromIndices` over feature names; names the model does not know are left out. */
export function vectorize(
  blocks: readonly (readonly [readonly string[], number])[],
  indexOf: (feature: string) => number | undefined,
): SparseRow {
  return rowFromIndices(
    blocks.map(([names, scale]) => {
      const indices: number[] = [];
      for (const f of names) {
        const i = indexOf(f);
        if (i !== undefined) indices.push(i);
      }
      return [indices, scale] as const;
    }),
  );
}

/**
 * Feature name → index, looked up from a sink's parts without building the name: by key first
 * (one map; token strings are shared, so their hashes are already known), then by prefix, then
 * (pairs) by second part.
 */
function partLookup(names: readonly string[]): (prefix: string, key: string, second?: string) => number | undefined {
  const byKey = new Map<string, Map<string, number | Map<string, number>>>();
  for (const [i, name] of names.entries()) {
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? name : name.slice(0, colon + 1);
    const rest = colon < 0 ? '' : name.slice(colon + 1);
    const space = PAIR_PREFIXES.has(prefix) ? rest.indexOf(' ') : -1;
    const key = space < 0 ? rest : rest.slice(0, space);
    const prefixes = byKey.get(key) ?? new Map<string, number | Map<string, number>>();
    byKey.set(key, prefixes);
    if (space < 0) {
      prefixes.set(prefix, i);
    } else {
      const seconds = prefixes.get(prefix);
      const map = seconds instanceof Map ? seconds : new Map<string, number>();
      map.set(rest.slice(space + 1), i);
      prefixes.set(prefix, map);
    }
  }
  return (prefix, key, second) => {
    const v = byKey.get(key)?.get(prefix);
    if (second === undefined) return typeof v === 'number' ? v : undefined;
    return v instanceof Map ? v.get(second) : undefined;
  };
}

/** The position of the rules' block among `sentenceBlocks`. */
export const RULES_BLOCK = 2;

export function sentenceBlocks(blocks: FeatureBlocks, scale: ModelData['blockScale']): [readonly string[], number][] {
  return [
    [blocks.words, scale.words],
    [blocks.chars, scale.chars],
    [blocks.rules, scale.rules],
  ];
}

function softmax3(z: readonly number[]): [number, number, number] {
  const [a = 0, b = 0, c = 0] = z;
  const m = Math.max(a, b, c);
  const ea = Math.exp(a - m);
  const eb = Math.exp(b - m);
  const ec = Math.exp(c - m);
  const s = ea + eb + ec;
  return [ea / s, eb / s, ec / s];
}

function likeliest(p: readonly number[]): Sentiment {
  let best = 0;
  for (let k = 1; k < p.length; k += 1) if ((p[k] as number) > (p[best] as number)) best = k;
  return SENTIMENTS[best] as Sentiment;
}

/**
 * The learned analyzer: the rules' trace, then the models. `ownWords`, when given, are rules that
 * know only a business's own vocabulary extension: an aspect its cues or aspect phrases mark in a
 * sentence is labelled whatever the detector says (the model never saw those words), with the
 * polarity model's sentiment.
 */
export function createModelAnalyzer(rules: RuleAnalyzer, model: ModelData, ownWords?: RuleAnalyzer): Analyzer {
  // Row-major weights: feature index → 16 slots, for cache-friendly dot products.
  const names = Object.keys(model.weights);
  const table = new Float64Array(names.length * SLOTS);
  for (const [i, name] of names.entries()) {
    const w = model.weights[name] ?? [];
    for (let k = 0; k < SLOTS; k += 1) table[i * SLOTS + k] = w[k] ?? 0;
  }
  const lookup = partLookup(names);
  const collect = (list: number[]): FeatureSink => (prefix, key, second) => {
    const i = lookup(prefix, key, second);
    if (i !== undefined) list.push(i);
  };

  const bias = Float64Array.from({ length: SLOTS }, (_, k) => model.bias[k] ?? 0);
  /** All 16 logits of a row in one pass over its features. */
  const logits = (row: SparseRow, withBias: boolean): Float64Array => {
    const z = withBias ? Float64Array.from(bias) : new Float64Array(SLOTS);
    for (let j = 0; j < row.index.length; j += 1) {
      const base = (row.index[j] as number) * SLOTS;
      const v = row.value[j] as number;
      for (let k = 0; k < SLOTS; k += 1) z[k] = (z[k] as number) + (table[base + k] as number) * v;
    }
    return z;
  };

  // Each aspect's probability for the sentence being analysed (reused: analyzeSentence is synchronous).
  const pAspects = new Float64Array(DETECTORS);
  function analyzeSentence(text: string): SentenceResult {
    const trace = rules.traceSentence(text);
    const words: number[] = [];
    const chars: number[] = [];
    const ruleFeatures: number[] = [];
    const scale = model.blockScale;
    emitSentenceFeatures(trace, { words: collect(words), chars: scale.chars !== 0 ? collect(chars) : null, rules: collect(ruleFeatures) });
    const row = rowFromIndices([[words, scale.words], [chars, scale.chars], [ruleFeatures, scale.rules]]);
    // Polarity logits are linear: the sentence's part (z) once, each aspect's part added to it.
    const z = logits(row, true);
    const labels: AspectLabel[] = [];
    const marked = ownWords === undefined ? undefined : markedAspects(ownWords.traceSentence(text));
    let topAspect = 0;
    for (let k = 0; k < DETECTORS; k += 1) {
      pAspects[k] = marked?.has(ASPECT_IDS[k] as AspectId) === true ? 1 : sigmoid(z[k] as number);
      if ((pAspects[k] as number) > (pAspects[topAspect] as number)) topAspect = k;
    }
    for (const [k, aspect] of ASPECT_IDS.entries()) {
      const pAspect = pAspects[k] as number;
      const floor = k === topAspect ? Math.min(model.likeliestFloor, model.thresholds[k] ?? 0.5) : (model.thresholds[k] ?? 0.5);
      if (pAspect < floor) continue;
      const aspectIndices: number[] = [];
      emitAspectFeatures(trace, aspect, collect(aspectIndices));
      const aspectRow = rowFromIndices([[aspectIndices, scale.aspect]]);
      const own = logits(aspectRow, false);
      const p = softmax3([0, 1, 2].map((c) => (z[POLARITY_SLOT + c] as number) + (own[POLARITY_SLOT + c] as number)));
      const sentiment = likeliest(p);
      // A problem from before the job (the rules saw its marker) is not this business's fault:
      // a negative label the rules did not give too is dropped.
      if (sentiment === 'negative' && trace.priorProblem && !ruleSays(trace, aspect, 'negative')) continue;
      labels.push({ aspect, sentiment, score: round3(p[0] - p[2]), confidence: round3(pAspect * (p[SENTIMENTS.indexOf(sentiment)] as number)) });
    }
    const o = softmax3([0, 1, 2].map((c) => z[OVERALL_SLOT + c] as number));
    return { text, labels, overall: likeliest(o), score: round3(o[0] - o[2]) };
  }

  return { analyzeSentence, analyzeText: (text) => analyzeTextWith(analyzeSentence, text) };
}

function ruleSays(trace: RuleTrace, aspect: AspectId, sentiment: Sentiment): boolean {
  return trace.result.labels.some((l) => l.aspect === aspect && l.sentiment === sentiment);
}

/** Aspects a sentence's trace marks by a strong cue or an aspect's own opinion phrase. */
function markedAspects(trace: RuleTrace): Set<AspectId> {
  const marked = new Set<AspectId>();
  for (const [aspect, tier] of trace.cueTiers) if (tier === 0) marked.add(aspect);
  for (const l of trace.result.labels) if (l.sentiment !== 'neutral') marked.add(l.aspect);
  return marked;
}
