/**
 * The result budget: what one tool result, resource read, prompt or list may hold,
 * in tokens as an agent counts what it receives (the whole result: text copy and
 * structured content; see src/domain/tokens.ts). Agents cap what a tool may return
 * (one popular client at 25,000 tokens) and cut or refuse what is over: a list past
 * the budget comes back shorter with the offset to go on, and a document past it is
 * offered in parts. The operator sets it with MCP_RESULT_MAX_TOKENS.
 */
import type { Implementation } from '@modelcontextprotocol/server';
import { countTokens, tokensAtMost } from '../../domain/tokens.ts';

/**
 * Bytes of what surrounds the part of a result that is counted in tokens: the
 * JSON-RPC frame, the result's members and the 2026-07-28 closing members (but the
 * server's info, added below), a search's counts and the note of a page cut short,
 * in both copies. Counted one token per byte; the token-bounds test holds the
 * largest of them to it.
 */
const ENVELOPE_BYTES = 1_200;

export interface ResultBudget {
  readonly maxTokens: number;
  /** Tokens left for the content of a result (reviews, a section) once its envelope is set aside. */
  readonly contentTokens: number;
  /** Whether a result whose JSON is `json` fits, its envelope included (tokenizes `json`: once per build). */
  fits(json: string): boolean;
}

export function resultBudget(maxTokens: number, info: Implementation): ResultBudget {
  const envelope = tokensAtMost(ENVELOPE_BYTES + Buffer.byteLength(JSON.stringify(info)));
  const contentTokens = Math.max(0, maxTokens - envelope);
  return { maxTokens, contentTokens, fits: (json) => countTokens(json) <= contentTokens };
}

/** How a tool's words name the budget. */
export function budgetWords(budget: ResultBudget): string {
  return `${budget.maxTokens.toLocaleString('en-US')} tokens`;
}
