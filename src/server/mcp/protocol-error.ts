/**
 * JSON-RPC errors that the MCP server's handlers throw. The SDK's v2 `ProtocolError`
 * carries only the words in its message: v1's `McpError` wrote "MCP error <code>: "
 * into it, and SDK clients put the same words in front of what they receive, so users
 * read the code twice (test/integration/mcp-hostile.test.ts checks it stays once).
 */
export { ProtocolError } from '@modelcontextprotocol/server';

export const INVALID_PARAMS = -32602;
/**
 * "Resource not found": -32602 since 2026-07-28 (SEP-2164; 2025 versions said -32002).
 * The SDK's v2 line sends -32602 in every era (its wire codecs turn -32002 into it),
 * so that is what clients of every version get.
 */
export const RESOURCE_NOT_FOUND = -32602;
/** An answer that would exceed the answer budget (see answer-budget.ts): a server error of JSON-RPC's implementation range. */
export const ANSWER_TOO_LARGE = -32010;
