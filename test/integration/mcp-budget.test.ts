/**
 * Every answer of the MCP endpoint fits the result budget (MCP_RESULT_MAX_TOKENS,
 * default 20,000), counted by the tokenizer on the bytes the client receives: each
 * tool at its defaults and at its largest arguments, every list, resource, prompt
 * and completion, in both eras and on both of the server's paths (its direct answers
 * and the SDK's), over the small fixture and over 100,000 generated reviews. Then the
 * SDK clients of both lines call each tool and get a complete, parseable answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REVIEW_FIELDS } from '../../src/domain/schemas/review-fields.ts';
import { INSIGHT_SECTIONS } from '../../src/domain/schemas/mcp-tools.ts';
import { generatedSite } from '../support/generated-dataset.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const BUDGET = 20_000;
const JSON_TYPES = 'application/json, text/event-stream';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

type Era = '2025-11-25' | '2026-07-28';
type Path = 'direct' | 'sdk';

/** The review with the longest JSON in the build's dataset, and the date of the oldest. */
function reviewsOf(outDir: string): { longest: string; oldestDate: string } {
  // A fixture build keeps its files under current/; a generated site is one build's folder.
  const file = path.join(outDir, existsSync(path.join(outDir, 'current')) ? 'current' : '', 'client/reviews.json');
  const dataset = JSON.parse(readFileSync(file, 'utf8')) as { reviews: { id: string; date: string }[] };
  let longest = dataset.reviews[0] as { id: string };
  let size = 0;
  for (const review of dataset.reviews) {
    const length = JSON.stringify(review).length;
    if (length > size) [longest, size] = [review, length];
  }
  return { longest: longest.id, oldestDate: (dataset.reviews.at(-1) as { date: string }).date };
}

const BUILDS: [string, () => string | Promise<string>, number][] = [
  ['the small fixture', () => inject('smallBuild'), 60],
  // Made once and kept in tmp/ (test/support/generated-dataset.ts); the server loads 100,000 reviews before it listens.
  ['100,000 generated reviews', () => generatedSite(inject('smallBuild'), 100_000), 120],
];

describe.each(BUILDS)('%s', (_build, outDirOf, startSeconds) => {
  let server: RunningServer;
  let longest: string;
  let oldestDate: string;
  beforeAll(async () => {
    const outDir = await outDirOf();
    ({ longest, oldestDate } = reviewsOf(outDir));
    server = await startServer(outDir, {}, startSeconds);
  }, 900_000);
  afterAll(() => server?.stop());

  /**
   * One request in an era, by the direct path or the SDK's: a 2026-07-28 request with a
   * progress token, a 2025 one asking for an event stream (the direct path answers JSON only).
   * Returns the JSON-RPC answer as received (an event's data).
   */
  async function rpc(era: Era, via: Path, method: string, params: Record<string, unknown> = {}, name?: string) {
    const modern = era === '2026-07-28';
    const meta = modern ? { ...ENVELOPE, ...(via === 'sdk' ? { progressToken: 'p' } : {}) } : undefined;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, ...(meta ? { _meta: meta } : {}) } });
    const accept = !modern && via === 'sdk' ? 'text/event-stream' : JSON_TYPES;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: accept, 'MCP-Protocol-Version': era };
    if (modern) Object.assign(headers, { 'Mcp-Method': method, ...(name === undefined ? {} : { 'Mcp-Name': name }) });
    const res = await rawRequest(`${server.url}/mcp`, { method: 'POST', headers, body });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    return accept === JSON_TYPES ? res.text : (/^data: (.+)$/m.exec(res.text)?.[1] ?? '');
  }

  const requests = (): [string, Record<string, unknown>, string?][] => [
    ['tools/list', {}],
    ['prompts/list', {}],
    ['resources/list', {}],
    ['resources/templates/list', {}],
    ['tools/call', { name: 'get_business', arguments: {} }, 'get_business'],
    ['tools/call', { name: 'search_reviews', arguments: {} }, 'search_reviews'],
    ['tools/call', { name: 'search_reviews', arguments: { limit: 100 } }, 'search_reviews'],
    ['tools/call', { name: 'search_reviews', arguments: { limit: 100, fields: REVIEW_FIELDS.join(',') } }, 'search_reviews'],
    ['tools/call', { name: 'search_reviews', arguments: { limit: 100, fields: 'id,rating,date,title,text' } }, 'search_reviews'],
    ['tools/call', { name: 'get_reviews_since', arguments: { date: oldestDate } }, 'get_reviews_since'],
    ['tools/call', { name: 'get_reviews_since', arguments: { date: oldestDate, limit: 100 } }, 'get_reviews_since'],
    ['tools/call', { name: 'get_review', arguments: { id: longest } }, 'get_review'],
    ['tools/call', { name: 'get_insights', arguments: {} }, 'get_insights'],
    ...INSIGHT_SECTIONS.map((section): [string, Record<string, unknown>, string] => ['tools/call', { name: 'get_insights', arguments: { section } }, 'get_insights']),
    ['resources/read', { uri: `reviews://review/${longest}` }, `reviews://review/${longest}`],
    ['prompts/get', { name: 'draft_reply', arguments: { review_id: longest } }, 'draft_reply'],
    ['completion/complete', { ref: { type: 'ref/resource', uri: 'reviews://review/{id}' }, argument: { name: 'id', value: '' } }],
  ];

  it.each([
    ['2025-11-25', 'direct'],
    ['2025-11-25', 'sdk'],
    ['2026-07-28', 'direct'],
    ['2026-07-28', 'sdk'],
  ] as const)(`%s, %s path: every answer is within ${BUDGET} tokens, and no tool fails`, async (era, via) => {
    const listed = JSON.parse(await rpc(era, via, 'resources/list')) as { result: { resources: { uri: string }[] } };
    const reads = listed.result.resources.map(({ uri }): [string, Record<string, unknown>, string] => ['resources/read', { uri }, uri]);
    for (const [method, params, name] of [...requests(), ...reads]) {
      const text = await rpc(era, via, method, params, name);
      const tokens = countTokens(text);
      expect(tokens, `${method} ${JSON.stringify(params)}`).toBeLessThanOrEqual(BUDGET);
      const answer = JSON.parse(text) as { result?: CallToolResult; error?: unknown };
      expect(answer.error, `${method} ${JSON.stringify(params)}`).toBeUndefined();
      if (method === 'tools/call') expect(answer.result?.isError, `${JSON.stringify(params)}: ${text.slice(0, 300)}`).toBeFalsy();
    }
    // A page cut short says where to go on: the largest pages of whole reviews are.
    const page = JSON.parse(await rpc(era, via, 'tools/call', { name: 'get_reviews_since', arguments: { date: oldestDate, limit: 100 } }, 'get_reviews_since'));
    const structured = page.result.structuredContent as { count: number; total: number; next_offset?: number };
    if (structured.total > structured.count) expect(structured.next_offset).toBe(structured.count);
  });

  const clients: [string, () => Promise<{ callTool: (p: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>; close: () => Promise<void> }>][] = [
    [
      'v1 SDK client on 2025-11-25',
      async () => {
        const client = new ClientV1({ name: 'budget-test', version: '1.0.0' });
        await client.connect(new TransportV1(new URL(`${server.url}/mcp`)));
        return client;
      },
    ],
    [
      'v2 SDK client on 2026-07-28',
      async () => {
        const client = new ClientV2({ name: 'budget-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        await client.connect(new TransportV2(new URL(`${server.url}/mcp`)));
        return client;
      },
    ],
  ];

  it.each(clients)('the %s calls each tool and gets a complete, parseable answer', async (_name, connect) => {
    const client = await connect();
    try {
      for (const [method, params] of requests()) {
        if (method !== 'tools/call') continue;
        const result = (await client.callTool(params as { name: string; arguments: Record<string, unknown> })) as CallToolResult;
        expect(result.isError, JSON.stringify(params)).toBeFalsy();
        const text = (result.content[0] as { text: string }).text;
        expect(JSON.parse(text), JSON.stringify(params)).toEqual(result.structuredContent);
      }
    } finally {
      await client.close();
    }
  });
});
