import { parseDocument } from 'yaml';

export type FrontMatterResult =
  | { ok: true; data: unknown; body: string }
  | { ok: false; message: string };

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits a markdown file into YAML front matter and body. YAML 1.2's core schema
 * keeps `2024-02-30` a string: the YAML 1.1 timestamp type would silently turn it
 * into 1 March, and we must check dates as written.
 */
export function splitFrontMatter(source: string): FrontMatterResult {
  const text = source.replace(/^\uFEFF/, '');
  const match = FENCE.exec(text);
  if (!match) return { ok: false, message: 'must start with a front matter block between two "---" lines' };
  const doc = parseDocument(match[1] ?? '', { version: '1.2', schema: 'core', uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    return { ok: false, message: `front matter is not valid YAML: ${first?.message.split('\n')[0] ?? 'parse error'}` };
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, message: 'front matter must be a set of "field: value" lines' };
  }
  return { ok: true, data, body: text.slice(match[0].length) };
}
