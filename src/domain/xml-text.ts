/**
 * The characters XML 1.0 forbids (its `Char` production): C0 controls other than
 * tab, line feed and carriage return; U+FFFE and U+FFFF; and surrogates that are
 * not half of a pair. One of them anywhere makes a feed ill-formed, and a strict
 * reader drops the whole document. The content check refuses them in every text
 * field (see content/text-rules.ts); the Atom writer strips them on its own too.
 */
const FORBIDDEN_SOURCE =
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';

/** Without the `u` flag, so that a lone surrogate is one code unit to match. */
const FORBIDDEN = new RegExp(FORBIDDEN_SOURCE);
const FORBIDDEN_ALL = new RegExp(FORBIDDEN_SOURCE, 'g');

export interface ForbiddenCharacter {
  /** Code-unit index in the string. */
  index: number;
  /** "U+0007" */
  codePoint: string;
}

export function findXmlForbidden(text: string): ForbiddenCharacter | undefined {
  const match = FORBIDDEN.exec(text);
  if (!match) return undefined;
  const unit = match[0].charCodeAt(0);
  return { index: match.index, codePoint: `U+${unit.toString(16).toUpperCase().padStart(4, '0')}` };
}

export function stripXmlForbidden(text: string): string {
  return text.replace(FORBIDDEN_ALL, '');
}
