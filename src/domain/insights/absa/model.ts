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
import type { RuleAnalyzer, RuleTrace } from './analyzer.ts';
import { analyzeTextWith, round3 } from './results.ts';
import type { Analyzer, AspectLabel, SentenceResult } from './results.ts';
import { ASPECT_IDS, SENTIMENTS } from '../../schemas/aspects.ts';
import type { AspectId, Sentiment } from '../../schemas/aspects.ts';
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
 * Feature name → index, looked up from a sink's parts without building the name. One table per
 * prefix: there are a dozen prefixes, so finding a prefix's table is a lookup in a small map that
 * stays in cache, and the feature takes one lookup in a large one (a pair, two).
 */
export class FeatureIndex {
  private readonly singles = new Map<string, Map<string, number>>();
  /** prefix → first part → second part → index. */
  private readonly pairs = new Map<string, Map<string, Map<string, number>>>();

  constructor(names: readonly string[]) {
    for (const [i, name] of names.entries()) {
      const colon = name.indexOf(':');
      const prefix = colon < 0 ? name : name.slice(0, colon + 1);
      const rest = colon < 0 ? '' : name.slice(colon + 1);
      const space = PAIR_PREFIXES.has(prefix) ? rest.indexOf(' ') : -1;
      if (space < 0) {
        tableOf(this.singles, prefix).set(rest, i);
      } else {
        tableOf(tableOf(this.pairs, prefix), rest.slice(0, space)).set(rest.slice(space + 1), i);
      }
    }
  }

  indexOf(prefix: string, key: string, second?: string): number | undefined {
    if (second === undefined) return this.singles.get(prefix)?.get(key);
    return this.pairs.get(prefix)?.get(key)?.get(second);
  }
}

function tableOf<V>(tables: Map<string, Map<string, V>>, name: string): Map<string, V> {
  let table = tables.get(name);
  if (table === undefined) {
    table = new Map<string, V>();
    tables.set(name, table);
  }
  return table;
}

/**
 * A row of the models' input, built in place. Each block's feature counts are L2-normalised and
 * scaled, and the blocks added up: a long sentence weighs no more than a short one, and each block
 * keeps its share. The analyzer builds one for every sentence and labelled aspect, training one per
 * example (`vectorize`), so nothing is allocated per row: features are added one at a time to their
 * block (blocks may interleave), repeats counted in a per-feature array, and the row is left in
 * `index`, `value` and `length`, reused by the next row. Each block's distinct features are listed
 * in index order, so the logits summed over a row are the same to the last bit in training and in
 * the analyzer. The blocks share one count array: they never share a feature (their prefixes differ).
 */
export class RowBuilder {
  /** Per feature: its count in the row being built (zero for the others). */
  private readonly counts: Int32Array;
  /** Per block: its distinct features, in the order first seen. */
  private readonly distinct: Int32Array[];
  private readonly sizes: number[];
  index: Int32Array = new Int32Array(64);
  value: Float64Array = new Float64Array(64);
  length = 0;

  constructor(featureCount: number, blockCount: number) {
    this.counts = new Int32Array(featureCount);
    this.distinct = Array.from({ length: blockCount }, () => new Int32Array(64));
    this.sizes = new Array<number>(blockCount).fill(0);
  }

  /** Start a row. Clears the counts the last row left, even if it was never finished. */
  start(): void {
    for (let b = 0; b < this.distinct.length; b += 1) {
      const features = this.distinct[b] as Int32Array;
      for (let j = 0; j < (this.sizes[b] as number); j += 1) this.counts[features[j] as number] = 0;
      this.sizes[b] = 0;
    }
    this.length = 0;
  }

  add(block: number, feature: number): void {
    const count = (this.counts[feature] as number) + 1;
    this.counts[feature] = count;
    if (count > 1) return;
    let features = this.distinct[block] as Int32Array;
    const size = this.sizes[block] as number;
    if (size === features.length) {
      features = grown(features, size * 2);
      this.distinct[block] = features;
    }
    features[size] = feature;
    this.sizes[block] = size + 1;
  }

  /**
   * Fill `index`, `value` and `length`: each block's counts L2-normalised and scaled by its entry
   * in `scales` (a block at scale 0 is left out), blocks in order.
   */
  finish(scales: readonly number[]): void {
    for (let b = 0; b < this.distinct.length; b += 1) {
      const size = this.sizes[b] as number;
      const scale = scales[b] ?? 0;
      if (scale === 0 || size === 0) continue;
      const sorted = (this.distinct[b] as Int32Array).subarray(0, size).sort();
      if (this.length + size > this.index.length) this.reserve(this.length + size);
      let norm = 0;
      for (let j = 0; j < size; j += 1) {
        const count = this.counts[sorted[j] as number] as number;
        norm += count * count;
      }
      const factor = scale / (Math.sqrt(norm) || 1);
      for (let j = 0; j < size; j += 1) {
        const feature = sorted[j] as number;
        this.index[this.length] = feature;
        this.value[this.length] = (this.counts[feature] as number) * factor;
        this.length += 1;
      }
    }
  }

  private reserve(capacity: number): void {
    this.index = grown(this.index, capacity * 2);
    const value = new Float64Array(capacity * 2);
    value.set(this.value);
    this.value = value;
  }
}

function grown(array: Int32Array, capacity: number): Int32Array {
  const bigger = new Int32Array(capacity);
  bigger.set(array);
  return bigger;
}

/**
 * A row from blocks of feature names, for training: `builder` is sized to the model's features and
 * has a block for each of `blocks`. Names the model does not know are left out.
 */
export function vectorize(
  blocks: readonly (readonly [readonly string[], number])[],
  indexOf: (feature: string) => number | undefined,
  builder: RowBuilder,
): SparseRow {
  builder.start();
  for (const [b, [names]] of blocks.entries()) {
    for (const f of names) {
      const i = indexOf(f);
      if (i !== undefined) builder.add(b, i);
    }
  }
  builder.finish(blocks.map(([, scale]) => scale));
  return { index: builder.index.slice(0, builder.length), value: builder.value.slice(0, builder.length) };
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

/** Softmax of three logits, in place. */
function softmax3(p: Float64Array): void {
  const [a = 0, b = 0, c = 0] = p;
  const m = Math.max(a, b, c);
  const ea = Math.exp(a - m);
  const eb = Math.exp(b - m);
  const ec = Math.exp(c - m);
  const s = ea + eb + ec;
  p[0] = ea / s;
  p[1] = eb / s;
  p[2] = ec / s;
}

/** The position of the largest probability (the first of equals). */
function likeliest(p: Float64Array): number {
  let best = 0;
  for (let k = 1; k < p.length; k += 1) if ((p[k] as number) > (p[best] as number)) best = k;
  return best;
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
  const features = new FeatureIndex(names);
  const bias = Float64Array.from({ length: SLOTS }, (_, k) => model.bias[k] ?? 0);
  const scale = model.blockScale;

  // Scratch for the sentence being analysed, reused: analyzeSentence is synchronous. A sentence's
  // row has the blocks of `sentenceBlocks`; an aspect's row is one block.
  const [wordsBlock, charsBlock] = [0, 1];
  const row = new RowBuilder(names.length, 3);
  const sentenceScales = [scale.words, scale.chars, scale.rules];
  const aspectScales = [scale.aspect];
  const into = (block: number): FeatureSink => (prefix, key, second) => {
    const i = features.indexOf(prefix, key, second);
    if (i !== undefined) row.add(block, i);
  };
  const sentenceSinks = { words: into(wordsBlock), chars: scale.chars !== 0 ? into(charsBlock) : null, rules: into(RULES_BLOCK) };
  const aspectSink = into(0);
  const z = new Float64Array(SLOTS);
  const pAspects = new Float64Array(DETECTORS);
  const polarity = new Float64Array(SENTIMENTS.length);
  const overall = new Float64Array(SENTIMENTS.length);

  /** Add the row's weights for slots `firstSlot`… (as many as `out` holds) to `out`. */
  const addLogits = (out: Float64Array, firstSlot: number): void => {
    for (let j = 0; j < row.length; j += 1) {
      const base = (row.index[j] as number) * SLOTS + firstSlot;
      const v = row.value[j] as number;
      for (let k = 0; k < out.length; k += 1) out[k] = (out[k] as number) + (table[base + k] as number) * v;
    }
  };

  function analyzeSentence(text: string): SentenceResult {
    const trace = rules.traceSentence(text);
    row.start();
    emitSentenceFeatures(trace, sentenceSinks);
    row.finish(sentenceScales);
    // Polarity logits are linear: the sentence's part (z) once, each aspect's part added to it.
    z.set(bias);
    addLogits(z, 0);
    const labels: AspectLabel[] = [];
    const marked = ownWords === undefined ? undefined : markedAspects(ownWords.traceSentence(text));
    let topAspect = 0;
    for (let k = 0; k < DETECTORS; k += 1) {
      pAspects[k] = marked?.has(ASPECT_IDS[k] as AspectId) === true ? 1 : sigmoid(z[k] as number);
      if ((pAspects[k] as number) > (pAspects[topAspect] as number)) topAspect = k;
    }
    for (let k = 0; k < DETECTORS; k += 1) {
      const aspect = ASPECT_IDS[k] as AspectId;
      const pAspect = pAspects[k] as number;
      const floor = k === topAspect ? Math.min(model.likeliestFloor, model.thresholds[k] ?? 0.5) : (model.thresholds[k] ?? 0.5);
      if (pAspect < floor) continue;
      row.start();
      emitAspectFeatures(trace, aspect, aspectSink);
      row.finish(aspectScales);
      // The aspect's part summed on its own, then added to the sentence's (the order of the sums
      // decides the last bits).
      polarity.fill(0);
      addLogits(polarity, POLARITY_SLOT);
      for (let c = 0; c < polarity.length; c += 1) polarity[c] = (z[POLARITY_SLOT + c] as number) + (polarity[c] as number);
      softmax3(polarity);
      const best = likeliest(polarity);
      const sentiment = SENTIMENTS[best] as Sentiment;
      // A problem from before the job (the rules saw its marker) is not this business's fault:
      // a negative label the rules did not give too is dropped.
      if (sentiment === 'negative' && trace.priorProblem && !ruleSays(trace, aspect, 'negative')) continue;
      const score = round3((polarity[0] as number) - (polarity[2] as number));
      labels.push({ aspect, sentiment, score, confidence: round3(pAspect * (polarity[best] as number)) });
    }
    overall.set(z.subarray(OVERALL_SLOT, OVERALL_SLOT + overall.length));
    softmax3(overall);
    const score = round3((overall[0] as number) - (overall[2] as number));
    return { text, labels, overall: SENTIMENTS[likeliest(overall)] as Sentiment, score };
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
