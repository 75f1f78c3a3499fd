/**
 * CORS for browser MCP clients on an allowed origin (see origin-guard.ts): the
 * origin is echoed, never `*`, and `Mcp-Session-Id` is exposed so that the
 * client can read the id it must send back.
 */
import type { Answer } from '../http/answer.ts';

const ALLOWED_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version';

/** Headers for every answer to a request from `origin` (undefined: no Origin header, not a browser). */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return { Vary: 'Origin' };
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
