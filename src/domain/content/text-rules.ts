/**
 * The rules every value the owner writes must follow, whatever field holds it
 * (fields added later included): no character XML 1.0 forbids, and no nesting
 * deeper than LIMITS.nestingDepth. Walked with an explicit stack, so a
 * pathologically deep value is reported instead of overflowing the call stack.
 */
import { findXmlForbidden } from '../xml-text.ts';
import { LIMITS } from './limits.ts';
import type { ContentProblem } from './problem.ts';

/** Where in a text a character sits, as a person counts: line and column when there are lines. */
function position(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const column = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
  return text.includes('\n') ? `line ${line}, column ${column}` : `character ${column}`;
}

/** The problem with one text, if it holds a character XML forbids. */
export function textProblem(file: string, field: string, text: string): ContentProblem | undefined {
  const found = findXmlForbidden(text);
  if (!found) return undefined;
  return {
    file,
    field,
    message:
      `has the character ${found.codePoint} at ${position(text, found.index)}, which feeds cannot carry: ` +
      'control characters other than tab and line breaks, U+FFFE, U+FFFF and unpaired surrogates are not allowed',
  };
}

function fieldName(path: readonly (string | number)[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i ? '.' : ''}${part}`)).join('');
}

/** Problems of every string (and key) inside a parsed front matter or JSON value. */
export function valueProblems(file: string, value: unknown): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as (typeof stack)[number];
    if (typeof current === 'string') {
      const problem = textProblem(file, fieldName(path), current);
      if (problem) problems.push(problem);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= LIMITS.nestingDepth) {
      problems.push({ file, field: fieldName(path) || null, message: `is nested too deeply: at most ${LIMITS.nestingDepth} levels of lists and objects are allowed` });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(current) ? current.map((item, i) => [i, item]) : Object.entries(current);
    for (const [key, item] of entries.reverse()) {
      if (typeof key === 'string') {
        const problem = textProblem(file, fieldName([...path, key]), key);
        if (problem) problems.push({ ...problem, message: `(the field name) ${problem.message}` });
      }
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return problems;
}
