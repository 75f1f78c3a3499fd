/**
 * How the MCP result budget counts: tokens of `o200k_base`, the encoding of
 * OpenAI's current models, through `gpt-tokenizer` (a pure TypeScript port of
 * tiktoken). Claude's tokenizer is not public; docs/mcp.md says how far the two
 * counts are apart on our answers and why the budget leaves room for it.
 *
 * Counting is slow (a few MB per second), so answers are never tokenized whole
 * when they are served: what they are made of is counted once (each review's
 * fields, each fixed result) and an answer's count is bounded by the sum of its
 * parts' counts plus one token per byte of everything else (a token is never
 * shorter than one byte). test/unit/mcp/token-bounds.test.ts checks that the sum
 * bounds the count of whole answers.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

export const TOKEN_ENCODING = 'o200k_base';

export function countTokens(text: string): number {
  return countO200k(text);
}

/** Tokens of `text` once written inside a JSON string (the text copy of a tool result). */
export function countEscapedTokens(text: string): number {
  return countO200k(JSON.stringify(text).slice(1, -1));
}

/** An upper bound on the tokens of any text of this many UTF-8 bytes: every token is at least one byte. */
export function tokensAtMost(bytes: number): number {
  return bytes;
}
