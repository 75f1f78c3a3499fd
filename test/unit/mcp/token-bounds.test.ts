/**
 * The result budget sums token counts made once (each review's fields, see
 * review-tokens.ts) instead of tokenizing answers. These tests hold the sum to what
 * it stands for: it bounds the real count of the reviews' two copies in an answer,
 * and whole answers built to fill a budget (direct path, both eras) stay within it
 * when the tokenizer counts them as received.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { fromByteString, joinBytes } from '../../../src/domain/byte-string.ts';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { reviewPage } from '../../../src/domain/catalog/review-page.ts';
import { PAGE_TOKENS, reviewTokensOf } from '../../../src/domain/catalog/review-tokens.ts';
import type { ReviewsDataset } from '../../../src/domain/schemas/datasets.ts';
import { REVIEW_FIELDS, type ReviewField } from '../../../src/domain/schemas/review-fields.ts';
import { countEscapedTokens, countTokens } from '../../../src/domain/tokens.ts';
import { directAnswer, type DirectContext } from '../../../src/server/mcp/direct-answers.ts';
import { resultBudget } from '../../../src/server/mcp/result-budget.ts';
import { reviewTools } from '../../../src/server/mcp/tools/index.ts';
import { generatedDataset } from '../../support/generated-dataset.ts';

const dataset = JSON.parse(generatedDataset(2_000)) as ReviewsDataset;
const catalog = buildReviewCatalog(dataset);
const tokens = reviewTokensOf(catalog);
const info = { name: 'reviews', title: `${dataset.business.name} reviews`, version: '1.0.0' };
const insights = { business: { name: dataset.business.name, url: dataset.business.url }, generated_from: { review_count: 0, newest_review_date: null } } as never;

const FIELD_SETS: (readonly ReviewField[] | undefined)[] = [
  undefined,
  ['id', 'rating', 'date', 'title', 'text'],
  ...REVIEW_FIELDS.map((field): ReviewField[] => (field === 'id' ? ['id'] : ['id', field])),
];

/** The real count of a page's reviews in an answer: the array as JSON and as escaped JSON. */
function realPageTokens(positions: number[], fields: readonly ReviewField[] | undefined): number {
  const json = fromByteString(joinBytes(reviewPage(catalog, positions, { fields }).json()));
  return countTokens(json) + countEscapedTokens(json);
}

describe('the sum of counted review tokens', () => {
  it('bounds the real count of every review alone, whole and with each field set', () => {
    let real = 0;
    let bound = 0;
    for (let position = 0; position < catalog.count; position += 7) {
      for (const fields of FIELD_SETS) {
        const sum = PAGE_TOKENS + tokens.ofReview(position, fields);
        const count = realPageTokens([position], fields);
        expect(count, `review ${position}, fields ${fields?.join(',')}`).toBeLessThanOrEqual(sum);
        real += count;
        bound += sum;
      }
    }
    // Close enough to be useful: the sum overstates by the separators it counts apart.
    expect(real / bound).toBeGreaterThan(0.85);
  });

  it('bounds the real count of pages of 20 and 100 reviews', () => {
    for (let start = 0; start + 100 <= catalog.count; start += 150) {
      for (const size of [20, 100]) {
        const positions = Array.from({ length: size }, (_, i) => start + i);
        for (const fields of FIELD_SETS.slice(0, 4)) {
          const sum = PAGE_TOKENS + positions.reduce((total, position) => total + tokens.ofReview(position, fields), 0);
          expect(realPageTokens(positions, fields)).toBeLessThanOrEqual(sum);
        }
      }
    }
  });
});

describe('answers filled up to a budget', () => {
  const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

  it.each([2_000, 4_000, 9_000, 20_000])('stay within %i tokens as received, in both eras, for every page the listing tools cut', (maxTokens) => {
    const tools = reviewTools(catalog, { insights }, resultBudget(maxTokens, info));
    const context: DirectContext = { tools, lists: { 'tools/list': ['tools', []], 'prompts/list': ['prompts', []], 'resources/list': ['resources', []], 'resources/templates/list': ['resourceTemplates', []] }, info, discover: { capabilities: {}, instructions: '' }, listTtlMs: 1 };
    const calls: [string, Record<string, unknown>][] = [];
    for (const offset of [0, 333, 1_000, 1_900]) {
      calls.push(['search_reviews', { limit: 100, offset }], ['search_reviews', { limit: 100, offset, fields: 'id,rating,date,title,text' }]);
      calls.push(['get_reviews_since', { date: '1970-01-01', limit: 100, offset }]);
    }
    for (const [name, args] of calls) {
      for (const modern of [false, true]) {
        const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, ...(modern ? { _meta: ENVELOPE } : {}) } } as unknown as JSONRPCMessage;
        const request = { messages: [message], protocolVersion: modern ? '2026-07-28' : '2025-11-25', mcpMethod: modern ? 'tools/call' : null, mcpName: modern ? name : null };
        const parts = directAnswer(request, modern, context) ?? [];
        const answer = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part))).toString();
        const parsed = JSON.parse(answer) as { result: { isError?: boolean; structuredContent: { count: number; next_offset?: number } } };
        expect(parsed.result.isError, answer.slice(0, 200)).toBeUndefined();
        expect(parsed.result.structuredContent.count).toBeGreaterThanOrEqual(1);
        expect(countTokens(answer), `${name} ${JSON.stringify(args)} in ${maxTokens}`).toBeLessThanOrEqual(maxTokens);
      }
    }
  });
});
