import type { AspectAnalyzer } from '../review-record.ts';
import { createAnalyzer, defaultVocabulary, mergeVocabulary } from './absa/index.ts';
import type { AnalyzedAspect } from './owner-corrections.ts';
import type { VocabularyExtensionInput } from './vocabulary-extension.ts';

/** The analyzer's confidence in a label, when it gives one (a number in [0, 1]). */
function confidenceOf(label: object): number | undefined {
  return 'confidence' in label && typeof label.confidence === 'number' ? label.confidence : undefined;
}

/** The analyzer the build uses for each review's text, with the business's vocabulary extension. */
export function analyzeReviewAspects(extension: VocabularyExtensionInput | null): AspectAnalyzer {
  const analyzer = createAnalyzer(extension ? mergeVocabulary(defaultVocabulary, extension) : defaultVocabulary);
  return (text) =>
    analyzer.analyzeText(text).aspects.map((label): AnalyzedAspect => {
      const { aspect, sentiment, score, excerpt } = label;
      const confidence = confidenceOf(label);
      return confidence === undefined ? { aspect, sentiment, score, excerpt } : { aspect, sentiment, score, excerpt, confidence };
    });
}
