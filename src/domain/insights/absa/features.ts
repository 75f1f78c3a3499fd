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
import type { AspectId } from './aspects.ts';
import type { RuleTrace } from './analyzer.ts';

export const CHAR_MIN = 3;
export const CHAR_MAX = 5;

/** Words that open a negation scope for the `n:` features. */
const NEGATORS = new Set(['not', 'no', 'never', 'nobody', 'nothing', 'without', 'none', 'neither', 'nor', 'zero', 'hardly', 'barely']);
const SCOPE_END = new Set(['but', 'and', 'so', 'because', 'which', 'who', 'although', 'though', 'yet', 'however']);

export interface FeatureBlocks {
  readonly words: string[];
  readonly chars: string[];
  readonly rules: string[];
}

/** The feature strings of a sentence, by block (duplicates kept: counts matter for weighting). */
export function sentenceFeatures(trace: RuleTrace, withChars = true): FeatureBlocks {
  const words: string[] = [];
  const chars: string[] = [];
  const rules: string[] = [];
  let previous = '<s>';
  let negated = false;
  for (const t of trace.tokens) {
    if (t.kind === 'punct') {
      if (t.norm === '?' || t.norm === '!') words.push(`w:${t.norm}`);
      negated = false;
      previous = '<p>';
      continue;
    }
    const w = t.norm;
    words.push(`w:${w}`, `b:${previous} ${w}`);
    if (negated) words.push(`n:${w}`);
    if (NEGATORS.has(t.lower)) negated = true;
    else if (SCOPE_END.has(t.lower)) negated = false;
    previous = w;
    if (withChars && t.kind === 'word') {
      const padded = ` ${t.lower} `;
      for (let n = CHAR_MIN; n <= CHAR_MAX; n += 1) {
        for (let i = 0; i + n <= padded.length; i += 1) chars.push(`c:${padded.slice(i, i + n)}`);
      }
    }
  }
  words.push(`b:${previous} </s>`);
  for (const l of trace.result.labels) rules.push(`r:${l.aspect}:${l.sentiment}`);
  for (const [aspect, tier] of trace.cueTiers) rules.push(`t:${aspect}:${tier}`);
  rules.push(`ro:${trace.result.overall}`, `rn:${Math.min(trace.result.labels.length, 3)}`);
  if (trace.priorProblem) rules.push('pp');
  return { words, chars, rules };
}

/** Tokens either side of an aspect's cue whose words describe that aspect's polarity. */
export const ASPECT_WINDOW = 4;

/** Features describing one aspect's reading by the rules, for the polarity model. */
export function aspectFeatures(trace: RuleTrace, aspect: AspectId, window = ASPECT_WINDOW): string[] {
  const label = trace.result.labels.find((l) => l.aspect === aspect);
  const tier = trace.cueTiers.get(aspect);
  const near = new Set<string>();
  for (const pos of trace.aspectAt.get(aspect) ?? []) {
    for (let i = Math.max(0, pos - window); i <= pos + window && i < trace.tokens.length; i += 1) {
      const t = trace.tokens[i];
      if (t !== undefined && t.kind !== 'punct') near.add(`aw:${t.norm}`);
    }
  }
  return [
    ...[...near].sort(),
    `a:${aspect}`,
    `ar:${label?.sentiment ?? 'none'}`,
    `ar:${aspect}:${label?.sentiment ?? 'none'}`,
    `at:${tier ?? 'none'}`,
    `ao:${trace.result.overall}`,
  ];
}
