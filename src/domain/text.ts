/**
 * Text normalisation shared by mention detection, search and insights, so that
 * "Zoë", "ZOE" and "zoe" are the same word everywhere.
 */
const COMBINING_MARKS = /\p{M}+/gu;

/** Lower-case, accent-free form of a string; its length may differ from the input. */
export function foldText(value: string): string {
  return value.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
}

const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\]/g;

export function escapeRegExp(value: string): string {
  return value.replace(REGEXP_SPECIAL, '\\$&');
}

/**
 * A matcher for any of the given phrases as whole words in folded text. Inner white
 * space in a phrase matches any run of white space.
 */
export function wholeWordMatcher(phrases: readonly string[]): RegExp | undefined {
  const alternatives = [...new Set(phrases.map((p) => foldText(p).trim()).filter(Boolean))]
    // Longest first, so that "marcus reyes" wins over "marcus" in the same place.
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map((p) => p.split(/\s+/).map(escapeRegExp).join('\\s+'));
  if (alternatives.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'u');
}
