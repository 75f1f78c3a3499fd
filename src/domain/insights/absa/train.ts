/**
 * Training of the learned layer (model.ts) from labelled sentences. Deterministic: features are
 * indexed in sorted order, every model is trained with a fixed seed, and the weights are rounded,
 * so the same data and recipe give the same model.json byte for byte. Pure: no I/O.
 */
import type { RuleAnalyzer, RuleTrace } from './analyzer.ts';
import { ASPECT_IDS, SENTIMENTS } from '../../schemas/aspects.ts';
import type { AspectId } from '../../schemas/aspects.ts';
import { aspectFeatures, sentenceFeatures } from './features.ts';
import type { LabelledSentence } from './evaluate.ts';
import { trainSoftmax } from './logistic.ts';
import type { SparseRow, TrainOptions } from './logistic.ts';
import { OVERALL_SLOT, POLARITY_SLOT, RowBuilder, RULES_BLOCK, SLOTS, sentenceBlocks, vectorize } from './model.ts';
import type { ModelData } from './model.ts';

export interface LabelledText extends LabelledSentence {
  readonly text: string;
  /**
   * The rules were written or tuned against this sentence, so their labels are right on it far
   * more often than on new text (dev 0.97 against 0.47 on new writers); see `Recipe.maskTunedRules`.
   */
  readonly rulesTunedOn?: boolean;
}

export interface Recipe {
  /** A feature is kept when at least this many training sentences have it. */
  readonly minCount: number;
  readonly blockScale: ModelData['blockScale'];
  /** The probability at or above which an aspect is labelled (the same for every aspect). */
  readonly threshold: number;
  /** ModelData.likeliestFloor: the likeliest aspect's lower threshold. */
  readonly likeliestFloor: number;
  readonly detector: TrainOptions;
  readonly polarity: TrainOptions;
  readonly overall: TrainOptions;
  /** Detector runs averaged (each over its own shuffle of the data). */
  readonly bags: number;
  /** Weight of each sentence's overall label as an extra polarity example (0: not used). */
  readonly overallForPolarity: number;
  /**
   * Leave the rules' sentence features out of the detector and polarity rows of sentences the
   * rules were tuned on: there the rules are nearly always right, which would teach the stacked
   * models to trust them more than they deserve on new text. Those sentences still teach the
   * word features (and the overall model sees them whole).
   */
  readonly maskTunedRules: boolean;
  /** Decimals kept in model.json. */
  readonly digits: number;
}

export const RECIPE: Recipe = {
  minCount: 2,
  blockScale: { words: 1, chars: 0, rules: 0.5, aspect: 1.5 },
  threshold: 0.3,
  likeliestFloor: 0.2,
  detector: { epochs: 10, l2: 6e-3, rate: 0.3, seed: 1 },
  polarity: { epochs: 10, l2: 6e-3, rate: 0.3, seed: 2 },
  overall: { epochs: 10, l2: 1e-4, rate: 0.3, seed: 3 },
  overallForPolarity: 1,
  bags: 1,
  maskTunedRules: true,
  digits: 4,
};

function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

/** Train the detectors, the polarity model and the overall model on `examples`. */
export function trainModel(examples: readonly LabelledText[], rules: RuleAnalyzer, recipe: Recipe = RECIPE): ModelData {
  const traces = examples.map((e) => rules.traceSentence(e.text));
  const blocks = traces.map((t) => sentenceBlocks(sentenceFeatures(t, recipe.blockScale.chars !== 0), recipe.blockScale));
  const masked = examples.map((e) => recipe.maskTunedRules && e.rulesTunedOn === true);
  // The same blocks with the rules' block at scale 0 where `masked` (see Recipe.maskTunedRules).
  const maskedBlocks = blocks.map((b, i) => (masked[i] ? b.map(([f, scale], k) => [f, k === RULES_BLOCK ? 0 : scale] as [readonly string[], number]) : b));
  const pairs: { sentence: number; aspect: AspectId; sentiment: number }[] = [];
  for (const [i, e] of examples.entries()) {
    for (const l of e.labels) {
      if ((ASPECT_IDS as readonly string[]).includes(l.aspect)) {
        pairs.push({ sentence: i, aspect: l.aspect as AspectId, sentiment: SENTIMENTS.indexOf(l.sentiment as never) });
      }
    }
  }

  // Vocabulary: features of at least `minCount` sentences (or gold pairs), in sorted order.
  const frequency = new Map<string, number>();
  const countOnce = (features: Iterable<string>): void => {
    for (const f of new Set(features)) frequency.set(f, (frequency.get(f) ?? 0) + 1);
  };
  for (const b of blocks) countOnce(b.filter(([, scale]) => scale !== 0).flatMap(([f]) => f));
  for (const p of pairs) countOnce(aspectFeatures(traces[p.sentence] as RuleTrace, p.aspect));
  const names = [...frequency].filter(([, c]) => c >= recipe.minCount).map(([f]) => f).sort();
  const index = new Map(names.map((f, i) => [f, i]));
  const indexOf = (f: string): number | undefined => index.get(f);
  const dims = names.length;

  // Up to four blocks: the sentence's three, and the aspect's in a polarity row.
  const builder = new RowBuilder(dims, 4);
  const rows: SparseRow[] = blocks.map((b) => vectorize(b, indexOf, builder));
  const maskedRows: SparseRow[] = maskedBlocks.map((b, i) => (masked[i] ? vectorize(b, indexOf, builder) : (rows[i] as SparseRow)));
  const slots = new Float64Array(dims * SLOTS);
  const bias = new Array<number>(SLOTS).fill(0);

  for (const [k, aspect] of ASPECT_IDS.entries()) {
    const y = examples.map((e) => (e.labels.some((l) => l.aspect === aspect) ? 1 : 0));
    // The average of `bags` runs over differently shuffled data (still one linear model).
    for (let bag = 0; bag < recipe.bags; bag += 1) {
      const m = trainSoftmax(maskedRows, y, 2, dims, { ...recipe.detector, seed: recipe.detector.seed + k + 100 * bag });
      for (let f = 0; f < dims; f += 1) {
        slots[f * SLOTS + k] = (slots[f * SLOTS + k] as number) + ((m.weights[dims + f] as number) - (m.weights[f] as number)) / recipe.bags;
      }
      bias[k] = (bias[k] as number) + ((m.bias[1] as number) - (m.bias[0] as number)) / recipe.bags;
    }
  }
  const polarityRows = pairs.map((p) =>
    vectorize([...(maskedBlocks[p.sentence] ?? []), [aspectFeatures(traces[p.sentence] as RuleTrace, p.aspect), recipe.blockScale.aspect]], indexOf, builder),
  );
  const threeWay = (from: number, y: readonly number[], rs: readonly SparseRow[], options: TrainOptions, ws?: readonly number[]): void => {
    const m = trainSoftmax(rs, y, 3, dims, options, ws);
    for (let c = 0; c < 3; c += 1) {
      for (let f = 0; f < dims; f += 1) slots[f * SLOTS + from + c] = m.weights[c * dims + f] as number;
      bias[from + c] = m.bias[c] as number;
    }
  };
  // Every sentence's overall sentiment also teaches the polarity model what opinion words mean
  // (with no aspect features), weighted by `overallForPolarity`.
  const overallY = examples.map((e) => SENTIMENTS.indexOf(e.overall as never));
  const extra = recipe.overallForPolarity > 0 ? maskedRows : [];
  threeWay(
    POLARITY_SLOT,
    [...pairs.map((p) => p.sentiment), ...(extra.length > 0 ? overallY : [])],
    [...polarityRows, ...extra],
    recipe.polarity,
    [...pairs.map(() => 1), ...extra.map(() => recipe.overallForPolarity)],
  );
  threeWay(OVERALL_SLOT, overallY, rows, recipe.overall);

  const weights: Record<string, number[]> = {};
  for (const [f, name] of names.entries()) {
    const w: number[] = [];
    for (let k = 0; k < SLOTS; k += 1) w.push(roundTo(slots[f * SLOTS + k] as number, recipe.digits));
    while (w.length > 0 && w[w.length - 1] === 0) w.pop();
    if (w.length > 0) weights[name] = w;
  }
  return {
    format: 1,
    blockScale: recipe.blockScale,
    thresholds: ASPECT_IDS.map(() => recipe.threshold),
    likeliestFloor: recipe.likeliestFloor,
    bias: bias.map((b) => roundTo(b, recipe.digits)),
    weights,
  };
}

/** model.json's text: one feature per line, so a retrained model diffs readably. */
export function serializeModel(model: ModelData): string {
  const { weights, ...head } = model;
  const rows = Object.entries(weights).map(([f, w]) => `${JSON.stringify(f)}:${JSON.stringify(w)}`);
  return `${JSON.stringify(head).slice(0, -1)},"weights":{\n${rows.join(',\n')}\n}}\n`;
}
