/**
 * Malformed percent-encoding in a request's path or query (`%zz`, `%E0%A4`, a
 * `%C0%AF` that is no UTF-8) as issues naming the parameter: URLSearchParams would
 * quietly turn such bytes into U+FFFD and search for that, so they are refused first.
 */
import type { QueryIssue } from '../schemas/errors.ts';
import { quoteValue } from './query-issues.ts';

/** The decoded text, or undefined when the percent-encoding is malformed. `+` is a space in a query. */
function decode(raw: string, plusIsSpace: boolean): string | undefined {
  try {
    return decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, ' ') : raw);
  } catch {
    return undefined;
  }
}

export function malformedEncodingIssue(path: string, raw: string): QueryIssue {
  return {
    path,
    code: 'malformed_percent_encoding',
    message: `${path} has a malformed percent-encoding in ${quoteValue(raw)}: each % must be followed by two hex digits, and the bytes they encode must be UTF-8.`,
  };
}

/** A decoded path segment (such as the date of the since path), or the issue saying why it cannot be decoded. */
export function decodePathParameter(name: string, raw: string): { ok: true; value: string } | { ok: false; issue: QueryIssue } {
  const value = decode(raw, false);
  return value === undefined ? { ok: false, issue: malformedEncodingIssue(name, raw) } : { ok: true, value };
}

/** One issue per `name=value` pair of a raw query string (`?` included or not) that cannot be decoded. */
export function malformedQueryIssues(rawQuery: string): QueryIssue[] {
  const issues: QueryIssue[] = [];
  for (const pair of rawQuery.replace(/^\?/, '').split('&')) {
    if (!pair.includes('%')) continue;
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const name = decode(rawName, true);
    if (name === undefined) issues.push(malformedEncodingIssue(rawName, rawName));
    else if (equals >= 0 && decode(pair.slice(equals + 1), true) === undefined) issues.push(malformedEncodingIssue(name, pair.slice(equals + 1)));
  }
  return issues;
}

/**
 * The raw query with every pair that cannot be decoded made literal (each of its %
 * written %25), the other pairs as sent: a query a strict decoder accepts, for a
 * handler that would refuse the whole URL (a well-formed escape of a byte that is not
 * UTF-8 as much as a stray %), while the raw query still names what was wrong.
 */
export function escapeMalformedPairs(rawQuery: string): string {
  return rawQuery.replace(/[^?&]+/g, (pair) => (pair.includes('%') && decode(pair, true) === undefined ? pair.replace(/%/g, '%25') : pair));
}
