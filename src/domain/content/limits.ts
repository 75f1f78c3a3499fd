/**
 * Limits on what one content file may hold: several times a long customer review,
 * and low enough that a pasted log, a binary or a generated file is a content
 * problem naming the file, not a build that runs out of memory. Every review
 * becomes several copies of itself (reviews.json, the search index, the feeds, the
 * aspect excerpts: 5.8 times the file at the text limit). docs/hostile-input.md
 * gives the reasons and the measurement.
 */
export const LIMITS = {
  /** Bytes of one review file, front matter included. */
  reviewFileBytes: 64 * 1024,
  /** Characters of a review's text (the markdown body, as written). */
  reviewTextChars: 10_000,
  titleChars: 200,
  authorChars: 100,
  responseTextChars: 5_000,
  /** `verification` and `source`. */
  noteChars: 500,
  /** Names of the business, its services, technicians and areas, and their aliases. */
  nameChars: 200,
  businessFileBytes: 256 * 1024,
  /** faq.md and summary.md. */
  editorialFileBytes: 256 * 1024,
  aspectsFileBytes: 1024 * 1024,
  /** Levels of nested lists and objects in front matter and JSON files. */
  nestingDepth: 32,
} as const;
