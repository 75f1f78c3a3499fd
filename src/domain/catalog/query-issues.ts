/**
 * Turns what is wrong with a request's parameters into the API's issue list:
 * one issue per parameter, naming it, saying what was wrong and what is allowed.
 */
import type { z } from 'zod';
import type { QueryIssue } from '../schemas/errors.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: QueryIssue[] };

const SHOWN_VALUE = 40;
const SHOWN_ISSUES = 3;

/** A value as quoted in a message, cut short: a string JSON-quoted, anything else (an MCP argument's number, say) as its JSON. */
export function quoteValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  const cut = [...text].length > SHOWN_VALUE ? `${[...text].slice(0, SHOWN_VALUE).join('')}…` : text;
  return typeof value === 'string' ? JSON.stringify(cut) : cut;
}

function listNames(names: readonly string[]): string {
  return names.join(', ');
}

/** Edit distance, for "did you mean": parameter names are short, so the quadratic table is fine. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

function closest(name: string, known: readonly string[]): string | undefined {
  if (name.length > 40) return undefined;
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = candidate.startsWith(lower) && lower.length >= 3 ? 1 : distance(lower, candidate);
    if (d <= 3 && (!best || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name;
}

/**
 * Unknown names of one request that get a "did you mean": a typo comes alone or in a
 * few, and the edit distances of thousands of made-up names (an MCP call may carry
 * 18,000 in its 256 KiB) took most of a second.
 */
export const SUGGESTED_NAMES = 20;

/** `suggest: false` leaves out the "did you mean" (see SUGGESTED_NAMES). */
export function unknownParameterIssue(name: string, known: readonly string[], suggest = true): QueryIssue {
  const suggestion = suggest ? closest(name, known) : undefined;
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
  const allowed = known.length ? `the parameters are ${listNames(known)}` : 'this endpoint takes no query parameters';
  return {
    path: name,
    code: 'unknown_parameter',
    message: `${quoteValue(name)} is not a parameter of this endpoint; ${allowed}.${hint}`,
  };
}

/** One issue per unknown name of a request, the first SUGGESTED_NAMES with their "did you mean". */
export function unknownParameterIssues(names: Iterable<string>, known: readonly string[]): QueryIssue[] {
  return [...names].map((name, index) => unknownParameterIssue(name, known, index < SUGGESTED_NAMES));
}

export function repeatedParameterIssue(name: string, times: number): QueryIssue {
  return { path: name, code: 'repeated_parameter', message: `${name} is given ${times} times; give it once.` };
}

export function emptyValueIssue(name: string): QueryIssue {
  return { path: name, code: 'empty_value', message: `${name} is empty; give it a value or leave it out.` };
}

/**
 * One issue per parameter a schema refused; `input` holds the values as received.
 * `name` names the value when the schema checked a single one (a path parameter).
 */
export function issuesFromZod(error: z.ZodError, input: Readonly<Record<string, unknown>>, known: readonly string[], name = ''): QueryIssue[] {
  const issues: QueryIssue[] = [];
  const seen = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      issues.push(...unknownParameterIssues(issue.keys, known));
      continue;
    }
    const path = issue.path.map(String).join('.') || name;
    // A parameter that breaks several rules gets one issue: the first rule says what is allowed.
    if (seen.has(path)) continue;
    seen.add(path);
    const code = issue.code === 'custom' ? String(issue.params?.reason ?? 'invalid_value') : issue.code;
    const received = Object.hasOwn(input, path) ? `; got ${quoteValue(input[path])}` : '';
    issues.push({ path, code, message: `${path || 'The input'} ${issue.message}${received}.` });
  }
  return issues;
}

/** The top-level message of a 400: the first few issues, in words. */
export function invalidQueryMessage(issues: readonly QueryIssue[]): string {
  const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => issue.message);
  const more = issues.length > SHOWN_ISSUES ? ` And ${issues.length - SHOWN_ISSUES} more: see issues.` : '';
  return `Invalid query: ${shown.join(' ')}${more}`;
}
