/** What an importer makes of a source: the reviews it read, and every entry it could not, with why. */
import type { ImportedReview } from './imported-review.ts';

export interface SourceProblem {
  /** Where in the source, as the owner finds it: `review 3 (id AbC…)`, `row 7, column C (rating)`. */
  where: string;
  message: string;
}

export interface SourceReading {
  reviews: ImportedReview[];
  /** Entries left out on purpose (nothing to publish), each with its reason: reported, not an error. */
  skipped: SourceProblem[];
  /** Entries that are wrong: reported, and the import exits non-zero. */
  problems: SourceProblem[];
}
