/**
 * The checks the SDK leaves to us, as steps in front of the MCP route's answer: Host
 * and Origin (DNS rebinding), the preflight, POST only, CORS on every later answer, a
 * JSON-RPC 500 for what nobody expected, a lenient Accept and the JSON media type.
 */
import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { Exchange, Step } from '../http/pipeline.ts';
import { responseMode, type ResponseMode } from './accept.ts';
import { corsHeaders, preflight } from './cors.ts';
import { INTERNAL_ERROR, jsonRpcError, TRANSPORT_ERROR } from './http-responses.ts';
import { checkHostAndOrigin, type OriginPolicy } from './origin-guard.ts';
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
const checks = new WeakMap<Exchange, McpCheck>();
export const checkOf = (exchange: Exchange): McpCheck => checks.get(exchange) as McpCheck;

export function hostAndOrigin(policy: OriginPolicy): Step {
  return function guardHostAndOrigin(exchange, next) {
    const guard = checkHostAndOrigin(header(exchange.req, 'host'), header(exchange.req, 'origin'), policy);
    if (!guard.ok) return jsonRpcError(403, TRANSPORT_ERROR, guard.message, { headers: { Vary: 'Origin' } });
    checks.set(exchange, { origin: guard.origin, mode: 'json' });
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

/** Every answer past the preflight and the 405 carries the CORS headers of the request's origin. */
export const corsOnAnswers: Step = async (exchange, next) => {
  const answer = await next();
  if (answer !== undefined) for (const [name, value] of Object.entries(corsHeaders(checkOf(exchange).origin))) setHeader(answer, name, value);
  return answer;
};

export const internalErrors: Step = async (_exchange, next) => {
  try {
    return await next();
  } catch (error) {
    console.error('Unexpected error answering POST /mcp:', error);
    return jsonRpcError(500, INTERNAL_ERROR, 'Internal error: the server failed to answer this request.');
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
