/** The analyzer as published: the rules with the committed learned layer (model.json) on top. */
import { createRuleAnalyzer } from './analyzer.ts';
import type { Analyzer } from './results.ts';
import { createModelAnalyzer } from './model.ts';
import type { ModelData } from './model.ts';
import committedModel from './model.json' with { type: 'json' };
import { defaultVocabulary, emptyVocabulary, mergeVocabulary } from './aspect-vocabulary.ts';
import type { VocabularyExtension } from './aspect-vocabulary.ts';

export const defaultModel = committedModel as ModelData;

/**
 * Create the analyzer, optionally with a business's vocabulary extension (content/aspects.json):
 * the rules see the merged vocabulary, and an aspect that the extension's own cues or phrases
 * mark in a sentence is always labelled (see createModelAnalyzer).
 */
export function createAnalyzer(extension: VocabularyExtension | null = null, model: ModelData = defaultModel): Analyzer {
  if (extension === null) return createModelAnalyzer(createRuleAnalyzer(defaultVocabulary), model);
  const rules = createRuleAnalyzer(mergeVocabulary(defaultVocabulary, extension));
  return createModelAnalyzer(rules, model, createRuleAnalyzer(mergeVocabulary(emptyVocabulary, extension)));
}
