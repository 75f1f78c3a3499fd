/**
 * The fast paths in model.ts against plain definitions: FeatureIndex against the feature names,
 * RowBuilder (which builds the rows of training and of the analyzer) against `referenceRow`. The
 * model does what it was trained to do only if both agree exactly (same indices, same values to
 * the last bit, same order).
 */
import { describe, expect, it } from 'vitest';
import { createRuleAnalyzer } from '../../../src/domain/insights/absa/analyzer.ts';
import { ASPECT_IDS } from '../../../src/domain/schemas/aspects.ts';
import { emitAspectFeatures, emitSentenceFeatures, featureName } from '../../../src/domain/insights/absa/features.ts';
import type { FeatureSink } from '../../../src/domain/insights/absa/features.ts';
import { defaultModel } from '../../../src/domain/insights/absa/learned.ts';
import { seededRandom } from '../../../src/domain/insights/absa/logistic.ts';
import { FeatureIndex, RowBuilder } from '../../../src/domain/insights/absa/model.ts';
import type { SparseRow } from '../../../src/domain/insights/absa/logistic.ts';

/**
 * A row by its definition: count the features of each block, L2-normalise each block's counts
 * and scale it, blocks in order, features in index order within a block.
 */
function referenceRow(blocks: readonly (readonly [readonly number[], number])[]): SparseRow {
  const index: number[] = [];
  const value: number[] = [];
  for (const [indices, scale] of blocks) {
    if (scale === 0 || indices.length === 0) continue;
    const found = Int32Array.from(indices).sort();
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

describe('FeatureIndex', () => {
  it("finds each emitted feature at its name's position in the model, and nothing else", () => {
    const names = Object.keys(defaultModel.weights);
    const position = new Map(names.map((name, i) => [name, i]));
    const features = new FeatureIndex(names);
    const rules = createRuleAnalyzer();
    let found = 0;
    let missing = 0;
    const sink: FeatureSink = (prefix, key, second) => {
      const expected = position.get(featureName(prefix, key, second));
      expect(features.indexOf(prefix, key, second)).toBe(expected);
      if (expected === undefined) missing += 1;
      else found += 1;
    };
    const sentences = [
      "They didn't clean up, and the crew was polite.",
      'The estimate was fair but the roof still leaks after the storm!',
      'Great price, quick install, and they hauled away every nail.',
    ];
    for (const text of sentences) {
      const trace = rules.traceSentence(text);
      emitSentenceFeatures(trace, { words: sink, chars: sink, rules: sink });
      for (const aspect of ASPECT_IDS) emitAspectFeatures(trace, aspect, sink);
    }
    expect(found).toBeGreaterThan(50);
    expect(missing).toBeGreaterThan(0);
  });
});

describe('RowBuilder', () => {
  const random = seededRandom(3);
  const pick = (n: number): number => Math.floor(random() * n);
  const FEATURES = 40;

  /** Random blocks with repeats; some empty, some long enough to outgrow the builder's buffers. */
  function randomBlocks(): [number[], number][] {
    return Array.from({ length: 3 }, () => {
      const length = [0, 1, 5, 30, 200][pick(5)] as number;
      return [Array.from({ length }, () => pick(FEATURES)), [0, 1, 0.5, 2][pick(4)] as number];
    });
  }

  it('gives the rows of the definition, value for value, row after row', () => {
    const builder = new RowBuilder(FEATURES * 3, 3);
    for (let trial = 0; trial < 200; trial += 1) {
      // Blocks never share a feature (model.ts): offset each block's indices.
      const blocks = randomBlocks().map(([indices, scale], b): [number[], number] => [indices.map((i) => i + b * FEATURES), scale]);
      builder.start();
      // Interleaved, as the feature sinks add them.
      const longest = Math.max(...blocks.map(([indices]) => indices.length));
      for (let j = 0; j < longest; j += 1) {
        for (const [b, [indices]] of blocks.entries()) if (j < indices.length) builder.add(b, indices[j] as number);
      }
      builder.finish(blocks.map(([, scale]) => scale));
      const expected = referenceRow(blocks);
      expect(builder.index.slice(0, builder.length)).toEqual(expected.index);
      expect(builder.value.slice(0, builder.length)).toEqual(expected.value);
    }
  });

  it('starts clean after a row that was never finished', () => {
    const builder = new RowBuilder(10, 1);
    builder.start();
    builder.add(0, 4);
    builder.add(0, 4);
    builder.start();
    builder.add(0, 4);
    builder.finish([1]);
    expect([...builder.index.slice(0, builder.length)]).toEqual([4]);
    expect([...builder.value.slice(0, builder.length)]).toEqual([1]);
  });
});
