/**
 * The checks the SDK leaves to us, as steps in front of the MCP route's answer: Host
 * and Origin (DNS rebinding), the preflight, POST only, CORS on every later answer, a
 * JSON-RPC 500 for what nobody expected, a lenient Accept and the JSON media type.
 */
import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { Exchange, Outcome, Step } from '../http/pipeline.ts';
import { responseMode, type ResponseMode } from './accept.ts';
import { corsHeaders, preflight } from './cors.ts';
import { INTERNAL_ERROR, jsonRpcError, TRANSPORT_ERROR } from './http-responses.ts';
import { checkHostAndOrigin, type GuardResult, type OriginPolicy } from './origin-guard.ts';
import { SESSION_TTL_SECONDS } from './session-token.ts';
import { setHeader } from './answer-headers.ts';

/** A header's value, repeated ones joined, or null when absent. */
export function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

/** What the checks in front learn of a request, for the steps after them. */
interface McpCheck {
  /** The request's Origin, when it is an allowed one (undefined: no Origin, not a browser). */
  origin: string | undefined;
  mode: ResponseMode;
}
/** The exchange with what the checks learnt: a property costs less than a WeakMap entry per request (and its GC). */
type CheckedExchange = Exchange & { mcpCheck?: McpCheck };
export const checkOf = (exchange: Exchange): McpCheck => (exchange as CheckedExchange).mcpCheck as McpCheck;

/**
 * Verdicts of the Host and Origin check kept by the pair of headers: a client sends the
 * same pair on every request, and parsing them as URLs each time was a few per cent of a
 * small answer. The check is a pure function of the pair and the policy. Emptied when
 * full, so that a client sending new values each time costs no memory.
 */
const GUARD_VERDICTS_MAX = 64;

export function hostAndOrigin(policy: OriginPolicy): Step {
  const verdicts = new Map<string, GuardResult>();
  const verdictOf = (host: string | null, origin: string | null): GuardResult => {
    // NUL cannot appear in a header value, so the key names one pair only.
    const key = origin === null ? (host ?? '\0') : `${host ?? '\0'}\0${origin}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = checkHostAndOrigin(host, origin, policy);
      if (verdicts.size >= GUARD_VERDICTS_MAX) verdicts.clear();
      verdicts.set(key, verdict);
    }
    return verdict;
  };
  return function guardHostAndOrigin(exchange, next) {
    const guard = verdictOf(header(exchange.req, 'host'), header(exchange.req, 'origin'));
    if (!guard.ok) return jsonRpcError(403, TRANSPORT_ERROR, guard.message, { headers: { Vary: 'Origin' } });
    (exchange as CheckedExchange).mcpCheck = { origin: guard.origin, mode: 'json' };
    return next();
  };
}

export const mcpPreflight: Step = (exchange, next) => (exchange.req.method === 'OPTIONS' ? preflight(checkOf(exchange).origin) : next());

export const postOnly: Step = (exchange, next) => {
  const { method } = exchange.req;
  if (method === 'POST') return next();
  return jsonRpcError(
    405,
    TRANSPORT_ERROR,
    `Method Not Allowed: ${method}. This MCP endpoint takes JSON-RPC messages by POST only: it opens no standalone SSE stream (GET), ` +
      `and sessions are not ended by DELETE (they expire after ${SESSION_TTL_SECONDS / 3600} hours; simply stop using one).`,
    { headers: { Allow: 'POST', ...corsHeaders(checkOf(exchange).origin) } },
  );
};

/**
 * Every answer past the preflight and the 405 carries the CORS headers of the request's
 * origin. An answer made at once gets them at once: no promise, no microtask.
 */
export const corsOnAnswers: Step = (exchange, next) => {
  const withCors = (answer: Outcome): Outcome => {
    if (answer !== undefined) {
      const headers = corsHeaders(checkOf(exchange).origin);
      for (const name in headers) setHeader(answer, name, headers[name] as string);
    }
    return answer;
  };
  const result = next();
  return result instanceof Promise ? result.then(withCors) : withCors(result);
};

function internalError(error: unknown): Outcome {
  console.error('Unexpected error answering POST /mcp:', error);
  return jsonRpcError(500, INTERNAL_ERROR, 'Internal error: the server failed to answer this request.');
}

/** What nobody expected, thrown at once or later, is a JSON-RPC 500. */
export const internalErrors: Step = (_exchange, next) => {
  try {
    const result = next();
    return result instanceof Promise ? result.catch(internalError) : result;
  } catch (error) {
    return internalError(error);
  }
};

/** JSON whenever the client takes it, SSE when it takes only that; 406 when neither. */
export const acceptable: Step = (exchange, next) => {
  const mode = responseMode(header(exchange.req, 'accept'));
  if (mode === undefined) {
    return jsonRpcError(406, TRANSPORT_ERROR, 'Not Acceptable: this endpoint answers application/json or text/event-stream; send Accept: application/json, text/event-stream.');
  }
  checkOf(exchange).mode = mode;
  return next();
};

export const jsonBody: Step = (exchange, next) => {
  const contentType = header(exchange.req, 'content-type');
  if (contentType === null || isJsonContentType(contentType)) return next();
  return jsonRpcError(415, TRANSPORT_ERROR, `Unsupported Media Type: the body must be JSON sent as Content-Type: application/json, not ${contentType}.`);
};
