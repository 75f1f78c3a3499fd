import { parseDocument } from 'yaml';

export type FrontMatterResult =
  | { ok: true; data: unknown; body: string }
  | { ok: false; message: string };

/** The front matter block at the start of a review file; group 1 is its YAML. */
export const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Aliases a front matter may expand. A handful is plenty for a review; an alias
 * bomb (aliases of lists of aliases) would otherwise grow to gigabytes.
 */
const MAX_ALIAS_COUNT = 20;

/**
 * Splits a markdown file into YAML front matter and body. YAML 1.2's core schema
 * keeps `2024-02-30` a string: the YAML 1.1 timestamp type would silently turn it
 * into 1 March, and we must check dates as written.
 */
export function splitFrontMatter(source: string): FrontMatterResult {
  const text = source.replace(/^\uFEFF/, '');
  const match = FENCE.exec(text);
  if (!match) return { ok: false, message: 'must start with a front matter block between two "---" lines' };
  let data: unknown;
  try {
    const doc = parseDocument(match[1] ?? '', { version: '1.2', schema: 'core', uniqueKeys: true, prettyErrors: true });
    const first = doc.errors[0];
    // The yaml library reports nesting too deep for its recursion as a parse error of its own.
    if (first && /call stack/i.test(first.message)) return { ok: false, message: 'front matter is nested too deeply to read' };
    if (first) return { ok: false, message: `front matter is not valid YAML: ${first.message.split('\n')[0]}` };
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library throws, rather than reports, an alias bomb (ReferenceError) and nesting too deep for the stack (RangeError).
    const reason = error instanceof ReferenceError && /alias/i.test(error.message)
      ? `it expands aliases more than ${MAX_ALIAS_COUNT} times (an "alias bomb")`
      : String(error instanceof Error ? error.message : error).split('\n')[0];
    return { ok: false, message: `front matter cannot be read: ${reason}` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, message: 'front matter must be a set of "field: value" lines' };
  }
  return { ok: true, data, body: text.slice(match[0].length) };
}
