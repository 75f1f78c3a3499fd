/** Aspect-based sentiment analysis for roofing reviews: public API. */
export { ASPECT_IDS, SENTIMENTS, isAspectId, isSentiment } from '../../schemas/aspects.ts';
export type { AspectId, Sentiment } from '../../schemas/aspects.ts';
export { createRuleAnalyzer } from './analyzer.ts';
export type { RuleAnalyzer } from './analyzer.ts';
export { excerpt, textAspects } from './results.ts';
export type { Analyzer, AspectLabel, SentenceResult, TextAspect, TextResult } from './results.ts';
export { createAnalyzer, defaultModel } from './learned.ts';
export type { ModelData } from './model.ts';
export { splitSentences } from './sentences.ts';
export { tokenize, stem } from './tokenize.ts';
export type { Token } from './tokenize.ts';
export { defaultVocabulary, mergeVocabulary } from './aspect-vocabulary.ts';
export type { AspectVocabulary, Vocabulary, VocabularyExtension } from './aspect-vocabulary.ts';
export { evaluate, precisionRecallF1 } from './evaluate.ts';
export type { EvalReport, LabelledSentence, PredictedSentence, PRF } from './evaluate.ts';
