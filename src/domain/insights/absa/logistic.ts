/**
 * Logistic regression over sparse rows, trained by AdaGrad stochastic gradient descent with an L2
 * penalty. Deterministic: the example order of each epoch comes from a seeded generator, so the
 * same data, options and seed give the same weights bit for bit. Pure: no I/O, no clock.
 */
import { seededRandom } from '../../seeded-random.ts';

export { seededRandom };

/** A sparse example: feature indices and their values (same length). */
export interface SparseRow {
  readonly index: Int32Array;
  readonly value: Float64Array;
}

export interface TrainOptions {
  /** Passes over the data. */
  readonly epochs: number;
  /** L2 penalty per example step (applied to the weights an example touches). */
  readonly l2: number;
  /** AdaGrad base step. */
  readonly rate: number;
  readonly seed: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { epochs: 12, l2: 1e-4, rate: 0.5, seed: 1 };

function shuffled(n: number, random: () => number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  return order;
}

export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * Multinomial logistic regression: `classes` weight vectors of `dims` each (row-major, class
 * k's weight for feature f at k * dims + f) plus one bias per class. `labels[i]` is the class of
 * `rows[i]`; `weights[i]` (default 1) scales that example's gradient (class weighting).
 * With classes = 2 it is an ordinary binary logistic regression (softmax over two logits).
 */
export function trainSoftmax(
  rows: readonly SparseRow[],
  labels: readonly number[],
  classes: number,
  dims: number,
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
  exampleWeights?: readonly number[],
): { weights: Float64Array; bias: Float64Array } {
  const w = new Float64Array(classes * dims);
  const b = new Float64Array(classes);
  const g2w = new Float64Array(classes * dims);
  const g2b = new Float64Array(classes);
  const random = seededRandom(options.seed);
  const probabilities = new Float64Array(classes);
  const eps = 1e-8;
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    const order = shuffled(rows.length, random);
    for (const i of order) {
      const row = rows[i] as SparseRow;
      const y = labels[i] as number;
      const ew = exampleWeights?.[i] ?? 1;
      softmaxInto(probabilities, row, w, b, dims);
      for (let k = 0; k < classes; k += 1) {
        const grad = ew * ((probabilities[k] as number) - (k === y ? 1 : 0));
        const base = k * dims;
        for (let j = 0; j < row.index.length; j += 1) {
          const f = base + (row.index[j] as number);
          const g = grad * (row.value[j] as number) + options.l2 * (w[f] as number);
          g2w[f] = (g2w[f] as number) + g * g;
          w[f] = (w[f] as number) - (options.rate * g) / Math.sqrt((g2w[f] as number) + eps);
        }
        g2b[k] = (g2b[k] as number) + grad * grad;
        b[k] = (b[k] as number) - (options.rate * grad) / Math.sqrt((g2b[k] as number) + eps);
      }
    }
  }
  return { weights: w, bias: b };
}

/** Class probabilities of one row under a trained softmax model. */
export function predictSoftmax(
  row: SparseRow,
  model: { readonly weights: Float64Array; readonly bias: Float64Array },
  classes: number,
  dims: number,
): Float64Array {
  return softmaxInto(new Float64Array(classes), row, model.weights, model.bias, dims);
}

/** Writes the class probabilities of one row into `out` (one per class), for training and prediction alike. */
function softmaxInto(out: Float64Array, row: SparseRow, weights: Float64Array, bias: Float64Array, dims: number): Float64Array {
  const classes = out.length;
  let max = -Infinity;
  for (let k = 0; k < classes; k += 1) {
    let z = bias[k] as number;
    const base = k * dims;
    for (let j = 0; j < row.index.length; j += 1) z += (weights[base + (row.index[j] as number)] as number) * (row.value[j] as number);
    out[k] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let k = 0; k < classes; k += 1) {
    const e = Math.exp((out[k] as number) - max);
    out[k] = e;
    sum += e;
  }
  for (let k = 0; k < classes; k += 1) out[k] = (out[k] as number) / sum;
  return out;
}
