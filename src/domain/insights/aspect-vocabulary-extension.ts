/**
 * `content/aspects.json`: a business's additions to the aspect vocabulary, in the
 * shape of `aspect-vocabulary.json` with every key optional (see absa/README.md).
 * Checked with the rest of the content, so a typo in a key is an error, not a no-op.
 */
import { z } from 'zod';
import { ASPECTS } from '../schemas/review.ts';

const phrases = z.array(z.string().trim().min(1, 'must not be empty')).optional();

const aspectVocabularySchema = z.strictObject({
  cues: phrases,
  weakCues: phrases,
  genericCues: phrases,
  positive: phrases,
  negative: phrases,
});

export const vocabularyExtensionSchema = z.strictObject({
  aspects: z.partialRecord(z.enum(ASPECTS), aspectVocabularySchema).optional(),
  sentiment: z.strictObject({ positive: phrases, negative: phrases, weakPositive: phrases, weakNegative: phrases }).optional(),
  negators: phrases,
  broadNegators: phrases,
  intensifiers: phrases,
  diminishers: phrases,
  hedges: phrases,
  counterfactuals: phrases,
  remedies: phrases,
  contrast: z.strictObject({ but: phrases, although: phrases }).optional(),
  ignore: phrases,
  otherParty: phrases,
  priorProblem: phrases,
});
export type VocabularyExtensionInput = z.infer<typeof vocabularyExtensionSchema>;
