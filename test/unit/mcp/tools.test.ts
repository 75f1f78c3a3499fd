/**
 * The tools and resources without a server: built from the small fixture by the
 * same domain code as the build, checked against their own advertised schemas.
 */
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { readContentFiles } from '../../../src/build/read-content.ts';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { validateContent } from '../../../src/domain/content/validate.ts';
import { reviewsDataset, serializeJson } from '../../../src/domain/datasets.ts';
import { insightsDocument } from '../../../src/domain/insights/document.ts';
import { analyzeReviewAspects } from '../../../src/domain/insights/review-aspects.ts';
import type { ReviewsDataset } from '../../../src/domain/schemas/datasets.ts';
import { buildSite } from '../../../src/domain/site.ts';
import { answerBudget } from '../../../src/server/mcp/answer-budget.ts';
import { ProtocolError } from '../../../src/server/mcp/protocol-error.ts';
import { resourceSet } from '../../../src/server/mcp/resources.ts';
import { RESULT_MAX_TOKENS_DEFAULT } from '../../../src/server/config.ts';
import { resultBudget } from '../../../src/server/mcp/result-budget.ts';
import { reviewTools } from '../../../src/server/mcp/tools/index.ts';
import { techniciansText } from '../../../src/server/mcp/tools/business-names.ts';
import { insightsTokenSteps } from '../../../src/server/mcp/tools/insights.ts';
import { runSteps } from '../../../src/domain/catalog/catalog-builder.ts';
import { countEscapedTokens, countTokens } from '../../../src/domain/tokens.ts';

const checked = validateContent(readContentFiles(path.resolve(import.meta.dirname, '../../fixtures/small')));
if (!checked.ok) throw new Error('the small fixture is invalid');
const site = buildSite(checked.content, 'https://reviews.example.test', analyzeReviewAspects(checked.content.aspectVocabulary));
const dataset = JSON.parse(serializeJson(reviewsDataset(site))) as ReviewsDataset;
const insights = insightsDocument(site);
const catalog = buildReviewCatalog(dataset);
const budget = resultBudget(RESULT_MAX_TOKENS_DEFAULT, { name: 'reviews', version: '1.0.0' });
const tools = reviewTools(catalog, { insights }, budget);

const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
const outputValidators = new Map(tools.list.map((tool) => [tool.name, ajv.compile(tool.outputSchema ?? {})]));

function call(name: string, args: Record<string, unknown> = {}): CallToolResult {
  const result = tools.call(name, args);
  if (!result.isError) {
    const validate = outputValidators.get(name);
    expect(validate?.(result.structuredContent), `${name}: ${ajv.errorsText(validate?.errors)}`).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  }
  return result;
}

/** Every node of a JSON value, for schema-wide checks. */
function* nodes(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* nodes(item);
  else if (typeof value === 'object' && value !== null) {
    yield value as Record<string, unknown>;
    for (const child of Object.values(value)) yield* nodes(child);
  }
}

describe('tool definitions', () => {
  it('use only portable schema spellings: one type per schema, no empty schema for extra properties', () => {
    for (const tool of tools.list) {
      for (const node of nodes([tool.inputSchema, tool.outputSchema])) {
        expect(Array.isArray(node.type), tool.name).toBe(false);
        expect(node.additionalProperties, tool.name).not.toEqual({});
        expect(node.$schema, tool.name).toBeUndefined();
      }
    }
  });

  it('carry no keyword an agent learns nothing from: safe-integer bounds, a date regex beside format, example', () => {
    for (const tool of tools.list) {
      for (const node of nodes([tool.inputSchema, tool.outputSchema])) {
        expect(node.maximum, tool.name).not.toBe(Number.MAX_SAFE_INTEGER);
        expect(node.example, tool.name).toBeUndefined();
        if (node.format === 'date') expect(node.pattern, tool.name).toBeUndefined();
      }
    }
    // Real bounds stay (a page's limit, a rating), and fields keep their names.
    const search = tools.list.find((tool) => tool.name === 'search_reviews');
    expect(JSON.stringify(search?.inputSchema)).toMatch(/"maximum":(5|100)\b/);
  });

  it('every result, success or not, matches what the tool advertises', () => {
    call('get_business');
    call('search_reviews', { query: 'roof' });
    call('get_reviews_since', { date: '2023-01-01' });
    call('get_review', { id: 'c-three' });
    call('get_insights');
    call('get_insights', { section: 'entities' });
  });

  it('get_reviews_since defaults to 50 from offset 0, and reports the total beyond its page', () => {
    expect(call('get_reviews_since', { date: '2023-01-01' }).structuredContent).toMatchObject({ total: 4, count: 4, offset: 0, limit: 50 });
    expect(call('get_reviews_since', { date: '2023-01-01', offset: 3 }).structuredContent).toMatchObject({ total: 4, count: 1, offset: 3 });
    expect(call('get_reviews_since', { date: '2030-01-01' }).structuredContent).toMatchObject({ total: 0, count: 0, reviews: [] });
    // Paging follows the search's rules: a numeric string is read as its number, a fraction is refused.
    expect(call('get_reviews_since', { date: '2023-01-01', limit: '2' }).structuredContent).toMatchObject({ count: 2, limit: 2 });
    expect(call('get_reviews_since', { date: '2023-01-01', limit: 2.5 }).isError).toBe(true);
  });

  it('an unknown tool is a protocol error with invalid params (its message without the code), not a tool result', () => {
    expect(() => tools.call('get_everything', {})).toThrow(ProtocolError);
    expect(() => tools.call('get_everything', {})).toThrow(expect.objectContaining({ code: -32602, message: expect.stringMatching(/^Unknown tool: "get_everything"/) }));
  });

  it('arguments nested deeper than a flat value are a tool error, however deep (no stack overflow)', () => {
    let deep: unknown = 'a-one';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const [name, key] of [['get_review', 'id'], ['search_reviews', 'query'], ['get_reviews_since', 'date'], ['get_insights', 'section']] as const) {
      const result = tools.call(name, { [key]: deep });
      expect(result.isError, name).toBe(true);
      expect((result.content[0] as { text: string }).text).toMatch(/nested more than 8 levels deep/);
    }
  });

  it('a result over the answer budget is a tool error that says what to ask for instead; the budget is shared by one answer', () => {
    const budget = answerBudget(3000);
    const result = tools.call('search_reviews', { limit: 100 }, budget);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/more than the 0\.00 MiB this server puts in one answer.*Ask for fewer reviews at a time \(limit\)/);
    expect(tools.call('get_review', { id: 'a-one' }, budget).isError).toBeFalsy();
    const shared = answerBudget(3000);
    tools.call('get_review', { id: 'a-one' }, shared);
    expect(tools.call('get_review', { id: 'a-one' }, shared).isError).toBe(true);
  });

  it('missing arguments count as none', () => {
    expect(tools.call('get_business', undefined).isError).toBeFalsy();
  });
});

describe('insights token counts', () => {
  it('bound the real count of each member in both copies, counted a child at a time', () => {
    const counted = runSteps(insightsTokenSteps(structuredClone(insights)));
    let real = 0;
    let bound = 0;
    for (const [name, value] of Object.entries(insights)) {
      const member = `${JSON.stringify(name)}:${JSON.stringify(value)}`;
      const count = countTokens(member) + countEscapedTokens(member) + 2;
      const sum = counted.get(name) as number;
      expect(count, name).toBeLessThanOrEqual(sum);
      real += count;
      bound += sum;
    }
    expect([...counted.keys()]).toEqual(Object.keys(insights));
    // Close enough that a section that fits is not refused: the parts overstate only their separators.
    expect(real / bound).toBeGreaterThan(0.85);
  });
});

describe('vocabulary in descriptions', () => {
  it('cuts a long list short and points to get_business', () => {
    const technicians = Array.from({ length: 45 }, (_, i) => ({ id: `t${i}`, name: `Tech ${i}`, aliases: [] }));
    const text = techniciansText({ ...dataset.business, technicians });
    expect(text).toContain('Tech 39 (id t39)');
    expect(text).not.toContain('Tech 40');
    expect(text).toContain('and 5 more (see get_business)');
    expect(techniciansText({ ...dataset.business, technicians: [] })).toBe('This business lists no technicians.');
  });
});

describe('resources', () => {
  const documents = [{ path: '/reviews.json', name: 'reviews', title: 'Reviews', description: 'All of them.', mimeType: 'application/json', size: Buffer.byteLength('é{}'), text: () => 'é{}' }];
  const resources = resourceSet('https://reviews.example.test/', documents, catalog, budget);

  it('lists documents under the site URL with their byte size', () => {
    expect(resources.list).toEqual([expect.objectContaining({ uri: 'https://reviews.example.test/reviews.json', size: 4 })]);
  });

  it('reads a review with an encoded id', () => {
    const { contents } = resources.read('reviews://review/a%2Done', answerBudget());
    expect(contents[0]).toMatchObject({ uri: 'reviews://review/a%2Done', mimeType: 'application/json' });
    expect(JSON.parse((contents[0] as { text: string }).text).id).toBe('a-one');
  });

  it.each(['reviews://review/', 'reviews://review/a-one/extra', 'reviews://review/%ZZ', 'reviews://review/d-hidden', 'https://reviews.example.test/feed.xml', ''])(
    '%j is resource-not-found (-32602), naming the resources',
    (uri) => {
      expect(() => resources.read(uri, answerBudget())).toThrow(expect.objectContaining({ code: -32602, message: expect.stringContaining('reviews://review/{id}') }));
    },
  );

  it('refuses a document over the answer budget, charging a batch as one answer, and says what to use instead', () => {
    const budget = answerBudget(8);
    expect(resources.read('https://reviews.example.test/reviews.json', budget).contents).toHaveLength(1);
    expect(() => resources.read('https://reviews.example.test/reviews.json', budget)).toThrow(
      expect.objectContaining({ code: -32010, message: expect.stringMatching(/^Answer too large: .*Fetch it over HTTP at that URL/) }),
    );
  });
});
