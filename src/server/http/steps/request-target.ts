/**
 * The request target as the server routes it. RFC 9112 (3.2.2) says a server must
 * accept the absolute-form (`GET http://host/path`), which clients send to proxies
 * and some send to origin servers; it is served as its origin-form path, with the
 * target's authority standing for the Host header (3.2.2 says to ignore the header
 * then). A target in no form we serve is refused with a JSON 400 rather than being
 * read as a host name by the URL parser.
 */
import type { IncomingMessage } from 'node:http';
import { apiErrorAnswer } from '../api-error.ts';
import type { Answer } from '../answer.ts';
import type { Step } from '../pipeline.ts';

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

type TargetResult = { ok: true } | { ok: false; answer: Answer };

function badTarget(message: string): TargetResult {
  return {
    ok: false,
    answer: apiErrorAnswer(400, 'bad_request', message, { issues: [{ path: 'request-target', code: 'invalid_request_target', message }] }),
  };
}

/**
 * RFC 9112 3.2: a request with more than one Host line gets a 400. Node keeps the
 * first and drops the others, so the checks on Host (MCP's DNS-rebinding guard) and
 * whatever stands in front of this server could each read a different one.
 */
function hostLines(req: IncomingMessage): number {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    // The length first: lower-casing every header name was a copy of each per request.
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

/** Rewrites an absolute-form target in place as origin-form; refuses any other form but `*` for OPTIONS, and a doubled Host. */
function normaliseRequestTarget(req: IncomingMessage): TargetResult {
  if (hostLines(req) > 1) {
    const message = 'The request has more than one Host header; send exactly one (RFC 9112 3.2).';
    return { ok: false, answer: apiErrorAnswer(400, 'bad_request', message, { issues: [{ path: 'Host', code: 'repeated_header', message }] }) };
  }
  const target = req.url ?? '/';
  if (target.startsWith('/')) return { ok: true };
  if (target === '*' && req.method === 'OPTIONS') {
    req.url = '/';
    return { ok: true };
  }
  if (ABSOLUTE_FORM.test(target)) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return badTarget(`The request target ${JSON.stringify(target.slice(0, 100))} is not a valid absolute URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return badTarget(`The request target uses ${url.protocol}; this server answers http and https URLs only.`);
    }
    // The raw path and query, as sent: URL keeps percent-encodings as they are.
    req.url = `${url.pathname}${url.search}`;
    req.headers.host = url.host;
    return { ok: true };
  }
  return badTarget('The request target must be a path starting with "/" (origin-form) or an absolute http(s) URL (absolute-form).');
}

/**
 * Percent-encoded letters, digits, `-`, `_` and `~` in a path stand for themselves
 * (RFC 3986 6.2.2.2): `/api/reviews/%73earch` is the search. (`.` stays encoded, so
 * that no dot-segment appears that the client did not write.)
 */
const ENCODED_UNRESERVED = /%(?:4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|5F|7E)/gi;

/** Normalises the target, then reads the path and query the later steps route by. */
export const requestTarget: Step = (exchange, next) => {
  const target = normaliseRequestTarget(exchange.req);
  if (!target.ok) return target.answer;
  // Resolved against a base, so that a path starting with // stays a path.
  const url = new URL(`http://localhost${exchange.req.url ?? '/'}`);
  if (url.pathname.includes('%')) url.pathname = url.pathname.replace(ENCODED_UNRESERVED, (escape) => decodeURIComponent(escape));
  exchange.url = url;
  return next();
};
