/**
 * CORS for browser MCP clients on an allowed origin (see origin-guard.ts): the
 * origin is echoed, never `*`, and `Mcp-Session-Id` is exposed so that the
 * client can read the id it must send back.
 */
import type { Answer } from '../http/answer.ts';

const ALLOWED_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version';

/** What a request without Origin gets: the same object every time, read and never changed. */
const NO_ORIGIN: Readonly<Record<string, string>> = Object.freeze({ Vary: 'Origin' });

/** Headers for every answer to a request from `origin` (undefined: no Origin header, not a browser). */
export function corsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
  if (origin === undefined) return NO_ORIGIN;
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS, Vary: 'Origin' };
}

/** The answer to a preflight OPTIONS from an allowed origin. */
export function preflight(origin: string | undefined): Answer {
  return {
    status: 204,
    headers: {
      ...corsHeaders(origin),
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Max-Age': '86400',
      Allow: 'POST, OPTIONS',
      'Cache-Control': 'no-store',
    },
  };
}
