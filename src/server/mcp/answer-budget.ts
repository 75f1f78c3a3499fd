/**
 * A bound on what one answer of the MCP endpoint may hold. Tool results and
 * resource texts are charged against it as they are made; one that would go past
 * it is refused with an error that says what to use instead, so that no request
 * (nor a batch of them) makes the server build an answer of unbounded size.
 * The operator sets the bound with MCP_ANSWER_MAX_BYTES (default below).
 */
export const ANSWER_MAX_BYTES = 4 * 1024 * 1024;

export interface AnswerBudget {
  readonly maxBytes: number;
  /** Counts `bytes` if they still fit, and says whether they did. */
  take(bytes: number): boolean;
}

export function answerBudget(maxBytes = ANSWER_MAX_BYTES): AnswerBudget {
  let used = 0;
  return {
    maxBytes,
    take(bytes) {
      if (used + bytes > maxBytes) return false;
      used += bytes;
      return true;
    },
  };
}

export function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MiB`;
}
