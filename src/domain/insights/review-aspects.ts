import type { AspectAnalyzer } from '../review-record.ts';

/** The analyzer the build uses for each review, with the business's vocabulary extension. */
export function analyzeReviewAspects(_vocabularyExtension: unknown): AspectAnalyzer {
  return () => [];
}
