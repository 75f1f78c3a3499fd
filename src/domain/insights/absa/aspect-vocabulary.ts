/**
 * The vocabulary shape (see README.md) and `mergeVocabulary`, which adds a business's
 * extension (same shape, every key optional) to the base vocabulary.
 */
import { ASPECT_IDS } from '../../schemas/aspects.ts';
import type { AspectId } from '../../schemas/aspects.ts';
import baseVocabulary from '../aspect-vocabulary.json' with { type: 'json' };

export interface AspectVocabulary {
  /** Phrases that always signal the aspect, even with no opinion ("adjuster", "magnet sweep"). */
  readonly cues: readonly string[];
  /** Phrases that signal the aspect only when no other aspect is clearly present in the clause ("tarp", "driveway", "flashing"). */
  readonly weakCues: readonly string[];
  /** Generic targets ("roof", "crew") that yield the aspect only when the clause has an opinion and no other aspect. */
  readonly genericCues: readonly string[];
  /** Phrases that both signal the aspect and carry positive sentiment ("on time", "came in under the quote"). */
  readonly positive: readonly string[];
  /** Phrases that both signal the aspect and carry negative sentiment ("still leaks", "left a mess"). */
  readonly negative: readonly string[];
}

export interface Vocabulary {
  readonly aspects: Readonly<Record<AspectId, AspectVocabulary>>;
  readonly sentiment: {
    readonly positive: readonly string[];
    readonly negative: readonly string[];
    readonly weakPositive: readonly string[];
    readonly weakNegative: readonly string[];
  };
  /** Negators with a short scope (3 words): "not", "no", "without". */
  readonly negators: readonly string[];
  /** Negating quantifiers with a longer scope (6 words): "nobody", "not one of", "never". */
  readonly broadNegators: readonly string[];
  readonly intensifiers: readonly string[];
  readonly diminishers: readonly string[];
  readonly hedges: readonly string[];
  /** Irrealis markers ("should have", "would have been nice", "supposed to"): the opinions after them in the clause are flipped (what was wished for did not happen); with no opinion after them they are a complaint. */
  readonly counterfactuals: readonly string[];
  /** Verbs of repair or discovery ("fixed", "replaced", "found"): a negative opinion just after them describes the problem dealt with ("fixed two cracked vent caps"), not the work. */
  readonly remedies: readonly string[];
  readonly contrast: {
    /** "but", "however": what follows outweighs what came before. */
    readonly but: readonly string[];
    /** "although", "except": what follows is the subordinate, weaker part. */
    readonly although: readonly string[];
  };
  /** Phrases that carry no aspect or sentiment in this domain ("hail damage", "to be honest", "roofing company"). */
  readonly ignore: readonly string[];
  /** Markers of another party or a comparison ("the last roofer", "compared to", "than"): opinions after them, to the end of the clause, are not about this business. */
  readonly otherParty: readonly string[];
  /**
   * Markers of a problem from before the job or caused by something else ("before they", "after
   * the storm", "which is why we called"): negative opinions in their clause are about that
   * problem, not about this business.
   */
  readonly priorProblem: readonly string[];
}

type DeepPartial<T> = { readonly [K in keyof T]?: T[K] extends readonly string[] ? readonly string[] : DeepPartial<T[K]> };

/** A business's extension: the same shape as `Vocabulary`, every key optional. */
export type VocabularyExtension = DeepPartial<Vocabulary>;

function union(base: readonly string[], extra: readonly string[] | undefined): string[] {
  const out = [...base];
  if (extra === undefined) return out;
  const seen = new Set(base.map((s) => s.trim().toLowerCase()));
  for (const phrase of extra) {
    if (typeof phrase !== 'string') continue;
    const key = phrase.trim().toLowerCase();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(phrase.trim());
  }
  return out;
}

const EMPTY_ASPECT: AspectVocabulary = { cues: [], weakCues: [], genericCues: [], positive: [], negative: [] };

function mergeAspect(base: AspectVocabulary | undefined, ext: DeepPartial<AspectVocabulary> | undefined): AspectVocabulary {
  const b = base ?? EMPTY_ASPECT;
  return {
    cues: union(b.cues, ext?.cues),
    weakCues: union(b.weakCues, ext?.weakCues),
    genericCues: union(b.genericCues, ext?.genericCues),
    positive: union(b.positive, ext?.positive),
    negative: union(b.negative, ext?.negative),
  };
}

/**
 * Add `extension` to `base` and return a new vocabulary (neither argument is modified).
 * Lists are unioned (base order first, duplicates ignored case-insensitively); aspects not in
 * `ASPECT_IDS` are ignored. Nothing can be removed, only added.
 */
export function mergeVocabulary(base: Vocabulary, extension: VocabularyExtension | undefined | null): Vocabulary {
  const ext: VocabularyExtension = extension ?? {};
  const aspects = {} as Record<AspectId, AspectVocabulary>;
  for (const id of ASPECT_IDS) aspects[id] = mergeAspect(base.aspects[id], ext.aspects?.[id]);
  return {
    aspects,
    sentiment: {
      positive: union(base.sentiment.positive, ext.sentiment?.positive),
      negative: union(base.sentiment.negative, ext.sentiment?.negative),
      weakPositive: union(base.sentiment.weakPositive, ext.sentiment?.weakPositive),
      weakNegative: union(base.sentiment.weakNegative, ext.sentiment?.weakNegative),
    },
    negators: union(base.negators, ext.negators),
    broadNegators: union(base.broadNegators, ext.broadNegators),
    intensifiers: union(base.intensifiers, ext.intensifiers),
    diminishers: union(base.diminishers, ext.diminishers),
    hedges: union(base.hedges, ext.hedges),
    counterfactuals: union(base.counterfactuals, ext.counterfactuals),
    remedies: union(base.remedies, ext.remedies),
    contrast: {
      but: union(base.contrast.but, ext.contrast?.but),
      although: union(base.contrast.although, ext.contrast?.although),
    },
    ignore: union(base.ignore, ext.ignore),
    otherParty: union(base.otherParty, ext.otherParty),
    priorProblem: union(base.priorProblem, ext.priorProblem),
  };
}

/** A vocabulary with no phrases at all (the base of `defaultVocabulary`). */
export const emptyVocabulary: Vocabulary = {
  aspects: Object.fromEntries(ASPECT_IDS.map((id) => [id, EMPTY_ASPECT])) as Record<AspectId, AspectVocabulary>,
  sentiment: { positive: [], negative: [], weakPositive: [], weakNegative: [] },
  negators: [],
  broadNegators: [],
  intensifiers: [],
  diminishers: [],
  hedges: [],
  counterfactuals: [],
  remedies: [],
  contrast: { but: [], although: [] },
  ignore: [],
  otherParty: [],
  priorProblem: [],
};

/** The built-in vocabulary from `src/domain/insights/aspect-vocabulary.json`, normalised to the full shape. */
export const defaultVocabulary: Vocabulary = mergeVocabulary(emptyVocabulary, baseVocabulary as VocabularyExtension);
