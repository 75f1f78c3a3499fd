/**
 * JSON-RPC errors that the MCP server's handlers throw. The SDK's `McpError`
 * writes "MCP error <code>: " into its message, and SDK clients put the same
 * words in front of what they receive, so users read the code twice; the wire
 * message here holds only the words. Errors that the SDK itself raises are
 * mended the same way on their way out (`withoutCodePrefix`).
 */
export const INVALID_PARAMS = -32602;
/** "Resource not found", the MCP spec's code for resources/read (2025 versions). */
export const RESOURCE_NOT_FOUND = -32002;
/** An answer that would exceed the answer budget (see answer-budget.ts): a server error of JSON-RPC's implementation range. */
export const ANSWER_TOO_LARGE = -32010;

export class ProtocolError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }
}

const CODE_PREFIX = /^MCP error -?\d+: /;

interface ErrorMessage {
  error?: { message?: unknown };
}

function mend(message: unknown): void {
  const error = (message as ErrorMessage | null)?.error;
  if (error && typeof error.message === 'string') error.message = error.message.replace(CODE_PREFIX, '');
}

/** A JSON-RPC answer body with "MCP error <code>: " taken off the front of its error messages. */
export function withoutCodePrefix(body: string): string {
  // Only an answer holding an error can need it; results (which may be large) are left as they are.
  if (!body.includes('"message":"MCP error ')) return body;
  const parsed = JSON.parse(body) as unknown;
  if (Array.isArray(parsed)) parsed.forEach(mend);
  else mend(parsed);
  return JSON.stringify(parsed);
}
