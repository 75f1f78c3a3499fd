import type { AspectAnalyzer } from '../review-record.ts';
import { createAnalyzer } from './absa/index.ts';
import type { VocabularyExtensionInput } from './vocabulary-extension.ts';

/** The analyzer the build uses for each review's text, with the business's vocabulary extension. */
export function analyzeReviewAspects(extension: VocabularyExtensionInput | null): AspectAnalyzer {
  const analyzer = createAnalyzer(extension);
  return (text) =>
    analyzer.analyzeText(text).aspects.map(({ aspect, sentiment, score, confidence, excerpt }) => ({ aspect, sentiment, score, confidence, excerpt }));
}
