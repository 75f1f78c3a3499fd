/**
 * Features of a sentence for the learned layer (model.ts), as strings. Three blocks:
 *  - words: stems, stem bigrams, and stems inside a negation's scope ("not" … up to punctuation
 *    or a conjunction) marked as negated, so "not clean" differs from "clean";
 *  - characters: 3- to 5-grams of each lower-cased word padded with spaces, which survive typos
 *    and phone spelling ("definately", "recomend", "u");
 *  - rules: what the rule analyzer said (stacking): each aspect's label and cue tier, and the
 *    overall sentiment.
 * Pure and deterministic.
 */
import type { AspectId } from '../../schemas/aspects.ts';
import type { RuleTrace } from './analyzer.ts';

export const CHAR_MIN = 3;
export const CHAR_MAX = 5;

/** Words that open a negation scope for the `n:` features. */
const NEGATORS = new Set(['not', 'no', 'never', 'nobody', 'nothing', 'without', 'none', 'neither', 'nor', 'zero', 'hardly', 'barely']);
const SCOPE_END = new Set(['but', 'and', 'so', 'because', 'which', 'who', 'although', 'though', 'yet', 'however']);

/**
 * Where features go. A feature is `prefix + key`, or `prefix + key + " " + second` for a pair
 * (bigrams): the training collects those strings, the analyzer looks them up without building
 * them (model.ts), so one piece of code says what the features are.
 */
export type FeatureSink = (prefix: string, key: string, second?: string) => void;

/** Prefixes of the features that are pairs (`prefix + key + " " + second`). */
export const PAIR_PREFIXES: ReadonlySet<string> = new Set(['b:', 'ax:']);

/** The string a feature is known by in model.json. */
export function featureName(prefix: string, key: string, second?: string): string {
  return second === undefined ? prefix + key : `${prefix}${key} ${second}`;
}

export interface FeatureSinks {
  readonly words: FeatureSink;
  readonly chars: FeatureSink | null;
  readonly rules: FeatureSink;
}

/** Emit a sentence's features, by block (duplicates kept: counts matter for weighting). */
export function emitSentenceFeatures(trace: RuleTrace, sinks: FeatureSinks): void {
  const { words, chars, rules } = sinks;
  let previous = '<s>';
  let negated = false;
  for (const t of trace.tokens) {
    if (t.kind === 'punct') {
      if (t.norm === '?' || t.norm === '!') words('w:', t.norm);
      negated = false;
      previous = '<p>';
      continue;
    }
    const w = t.norm;
    words('w:', w);
    words('b:', previous, w);
    if (negated) words('n:', w);
    if (NEGATORS.has(t.lower)) negated = true;
    else if (SCOPE_END.has(t.lower)) negated = false;
    previous = w;
    if (chars !== null && t.kind === 'word') {
      const padded = ` ${t.lower} `;
      for (let n = CHAR_MIN; n <= CHAR_MAX; n += 1) {
        for (let i = 0; i + n <= padded.length; i += 1) chars('c:', padded.slice(i, i + n));
      }
    }
  }
  words('b:', previous, '</s>');
  for (const l of trace.result.labels) rules('r:', `${l.aspect}:${l.sentiment}`);
  for (const [aspect, tier] of trace.cueTiers) rules('t:', `${aspect}:${tier}`);
  rules('ro:', trace.result.overall);
  rules('rn:', String(Math.min(trace.result.labels.length, 3)));
  if (trace.priorProblem) rules('pp', '');
}

/** Tokens either side of an aspect's cue whose words describe that aspect's polarity. */
export const ASPECT_WINDOW = 4;

/** Emit the features of one aspect's reading (rules, nearby words), for the polarity model. */
export function emitAspectFeatures(trace: RuleTrace, aspect: AspectId, sink: FeatureSink): void {
  const label = trace.result.labels.find((l) => l.aspect === aspect);
  const tier = trace.cueTiers.get(aspect);
  // Each nearby word once, however many cues it is near.
  const near = new Set<string>();
  for (const pos of trace.aspectAt.get(aspect) ?? []) {
    for (let i = Math.max(0, pos - ASPECT_WINDOW); i <= pos + ASPECT_WINDOW && i < trace.tokens.length; i += 1) {
      const t = trace.tokens[i];
      if (t !== undefined && t.kind !== 'punct') near.add(t.norm);
    }
  }
  for (const w of near) sink('aw:', w);
  // The same words for this aspect alone: "quick" praises timeliness but blames an estimate
  // ("a quick look"), "cheap" praises a price but blames materials.
  for (const w of near) sink('ax:', aspect, w);
  sink('a:', aspect);
  sink('ar:', label?.sentiment ?? 'none');
  sink('ar:', `${aspect}:${label?.sentiment ?? 'none'}`);
  sink('at:', tier === undefined ? 'none' : String(tier));
  sink('ao:', trace.result.overall);
}

export interface FeatureBlocks {
  readonly words: string[];
  readonly chars: string[];
  readonly rules: string[];
}

/** A sentence's features as strings, by block (for training and tests). */
export function sentenceFeatures(trace: RuleTrace, withChars = true): FeatureBlocks {
  const blocks: FeatureBlocks = { words: [], chars: [], rules: [] };
  const into = (list: string[]): FeatureSink => (prefix, key, second) => list.push(featureName(prefix, key, second));
  emitSentenceFeatures(trace, { words: into(blocks.words), chars: withChars ? into(blocks.chars) : null, rules: into(blocks.rules) });
  return blocks;
}

/** One aspect's features as strings (for training and tests). */
export function aspectFeatures(trace: RuleTrace, aspect: AspectId): string[] {
  const list: string[] = [];
  emitAspectFeatures(trace, aspect, (prefix, key, second) => list.push(featureName(prefix, key, second)));
  return list;
}
