/**
 * One review file's share of a build: checked, and published when it is verified.
 * It depends on the file and on the business and the analyzer alone, so the build
 * computes it once per file's bytes and keeps it (src/build/review-cache.ts).
 */
import type { Business } from './content/schema.ts';
import type { ContentProblem } from './content/problem.ts';
import type { ReviewDates } from './content/review-dates.ts';
import { reviewChecker, type ContentFile } from './content/validate.ts';
import type { AspectAnalyzer } from './insights/review-aspects.ts';
import { reviewPublisher } from './review-record.ts';
import { publishedReview, type PublishedReview } from './published-review.ts';

export interface PreparedReview {
  /** The file's own problems; those of its id are checked across files (acceptReviews). */
  problems: ContentProblem[];
  /** The public record, when the review is verified and has no problem of its own. */
  published: PublishedReview | null;
  /**
   * The review's dates as written: whether they lie in the future depends on the day
   * of the build, so that is checked on each build (with the file's other problems), not kept.
   */
  dates: ReviewDates;
}

/**
 * Prepares review files one at a time. Without a business or an analyzer (their
 * files have problems, so nothing is published) reviews are only checked.
 */
export function reviewPreparer(business: Business | null, analyze: AspectAnalyzer | null): (file: ContentFile) => PreparedReview {
  const check = reviewChecker(business);
  const publish = business && analyze ? reviewPublisher(business, analyze) : null;
  return (file) => {
    const { review, problems, dates } = check(file);
    return { problems, published: review?.verified && publish ? publishedReview(publish(review)) : null, dates };
  };
}
