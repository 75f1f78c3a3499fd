/**
 * Conditional GET (RFC 9110 §13): If-None-Match, with weak comparison, lists and
 * `*`, takes precedence over If-Modified-Since, which is only looked at when
 * If-None-Match is absent.
 */
export interface Validators {
  /** The current ETag, quoted, plus tags of the same content in other encodings. */
  etags: readonly string[];
  lastModified?: Date | undefined;
}

export interface ConditionalHeaders {
  ifNoneMatch?: string | null | undefined;
  ifModifiedSince?: string | null | undefined;
}

function opaqueTag(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

export function etagMatches(ifNoneMatch: string, etags: readonly string[]): boolean {
  if (ifNoneMatch.trim() === '*') return etags.length > 0;
  const current = new Set(etags.map(opaqueTag));
  return (ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => current.has(opaqueTag(tag)));
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** HTTP-date (RFC 9110 5.6.7): IMF-fixdate, or the obsolete RFC 850 and asctime forms a recipient must also read. */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} (?: \\d|\\d{2}) ${TIME} \\d{4})$`,
);

/**
 * Milliseconds since the epoch of an HTTP-date, or undefined for anything else. Date.parse
 * alone reads "3000" or "tomorrow 9999" as dates, and a recipient must ignore an
 * If-Modified-Since that is no HTTP-date (RFC 9110 13.1.3), not answer 304 to it.
 */
export function parseHttpDate(value: string): number | undefined {
  const text = value.trim();
  if (!HTTP_DATE.test(text)) return undefined;
  // asctime carries no zone and is UTC; Date.parse would read it in the server's zone.
  const ms = Date.parse(text.endsWith(' GMT') ? text : `${text} GMT`);
  return Number.isNaN(ms) ? undefined : ms;
}

export function isNotModified(headers: ConditionalHeaders, validators: Validators): boolean {
  if (headers.ifNoneMatch != null && headers.ifNoneMatch !== '') {
    return etagMatches(headers.ifNoneMatch, validators.etags);
  }
  if (headers.ifModifiedSince && validators.lastModified) {
    const since = parseHttpDate(headers.ifModifiedSince);
    if (since === undefined) return false;
    // HTTP dates have whole seconds.
    return Math.floor(validators.lastModified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** Last-Modified of content whose newest change is a YYYY-MM-DD date: that day at 00:00 UTC. */
export function lastModifiedOf(date: string | null | undefined): Date | undefined {
  return date ? new Date(`${date}T00:00:00Z`) : undefined;
}

/**
 * The ETag of the same content in a content coding: a strong tag names exact bytes,
 * so the brotli and gzip bytes get their own (`"abc"` → `"abc-br"`).
 */
export function encodedEtag(etag: string, encoding: string): string {
  return etag.startsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : etag;
}

/** A tag and its encoded variants: a client holding any of them holds the current content. */
export function etagFamily(etag: string): string[] {
  return [etag, encodedEtag(etag, 'br'), encodedEtag(etag, 'gzip')];
}
