/**
 * The transport's own answers, before a message reaches the MCP server: every
 * refusal is a JSON-RPC error object (what an MCP client can read) with the HTTP
 * status that says what happened. Plain answers (see src/server/http/answer.ts),
 * written to Node or wrapped in a web Response by the adapters.
 */
import type { Answer } from '../http/answer.ts';

export type JsonRpcId = string | number | null;

/** Transport-level JSON-RPC error codes (the SDK's): -32000 for HTTP refusals, -32001 for an unknown session. */
export const TRANSPORT_ERROR = -32000;
export const SESSION_NOT_FOUND = -32001;
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;

export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  options: { id?: JsonRpcId; headers?: Record<string, string> } = {},
): Answer {
  return {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...options.headers },
    body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: options.id ?? null }),
  };
}
