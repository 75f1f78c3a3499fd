import { createAnalyzer, splitSentences, textAspects } from './absa/index.ts';
import type { AnalyzedAspect } from './owner-corrections.ts';
import { withoutOpeningProblem } from './opening-problem.ts';
import type { VocabularyExtensionInput } from './aspect-vocabulary-extension.ts';

/** A review's aspects from its text; `rating` (its stars), when given, lets the opening problem of a well-rated review be told apart (insights/opening-problem.ts). */
export type AspectAnalyzer = (text: string, rating?: number) => AnalyzedAspect[];

/**
 * The analyzer the build uses for each review's text, with the business's vocabulary extension.
 * Given the review's rating, a well-rated review's opening problem is not read as this business's
 * work (opening-problem.ts).
 */
export function analyzeReviewAspects(extension: VocabularyExtensionInput | null): AspectAnalyzer {
  const analyzer = createAnalyzer(extension);
  return (text, rating) => {
    // The sentences alone: analyzeText would also make the aspects and the overall this drops.
    const sentences = splitSentences(text).map((sentence) => analyzer.analyzeSentence(sentence));
    return textAspects(rating === undefined ? sentences : withoutOpeningProblem(sentences, rating)).map(
      ({ aspect, sentiment, score, confidence, excerpt }) => ({ aspect, sentiment, score, confidence, excerpt }),
    );
  };
}
