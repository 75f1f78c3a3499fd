/**
 * The MCP endpoint as agents use it: SDK clients over real HTTP against the built
 * server, in both eras. The v1 SDK's client (`@modelcontextprotocol/sdk`, what
 * existing integrations run) speaks 2025-11-25 with a session; the v2 client
 * (`@modelcontextprotocol/client`) once the same way and once pinned to
 * 2026-07-28 (no session, a `_meta` envelope on every request). Every client
 * checks each structuredContent against the tool's outputSchema, so a schema
 * that lies fails here.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_SITE_URL } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/** What the tests use of a client; both SDK lines have it. */
interface AgentClient {
  listTools(): Promise<{ tools: { name: string; title?: string; description?: string; inputSchema: { type: string; properties?: object }; outputSchema?: { type: string }; annotations?: object }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string; mimeType?: string; description?: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  ping(): Promise<unknown>;
  getServerVersion(): unknown;
  getServerCapabilities(): unknown;
  getInstructions(): string | undefined;
  listPrompts(): Promise<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ description?: string; messages: { role: string; content: { type: string; text?: string; resource?: { uri: string; text?: string } } }[] }>;
  complete(params: { ref: { type: string; name?: string; uri?: string }; argument: { name: string; value: string } }): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  close(): Promise<void>;
}

interface Connected {
  client: AgentClient;
  sessionId: () => string | undefined;
}

const clientInfo = { name: 'integration-test', version: '1.0.0' };
const CLIENTS: [string, (url: URL) => Promise<Connected>][] = [
  [
    'v1 SDK client, 2025-11-25 with a session',
    async (url) => {
      const client = new ClientV1(clientInfo);
      const transport = new TransportV1(url);
      await client.connect(transport);
      return { client: client as unknown as AgentClient, sessionId: () => transport.sessionId };
    },
  ],
  [
    'v2 SDK client, 2025-11-25 with a session',
    async (url) => {
      const client = new ClientV2(clientInfo);
      const transport = new TransportV2(url);
      await client.connect(transport);
      return { client: client as unknown as AgentClient, sessionId: () => transport.sessionId };
    },
  ],
  [
    'v2 SDK client, 2026-07-28 (stateless)',
    async (url) => {
      const client = new ClientV2(clientInfo, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      const transport = new TransportV2(url);
      await client.connect(transport);
      return { client: client as unknown as AgentClient, sessionId: () => transport.sessionId };
    },
  ],
];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;
const idsOf = (result: CallToolResult) => (result.structuredContent as { reviews: { id: string }[] }).reviews.map((r) => r.id);
const httpGet = async (path: string) => (await rawRequest(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'identity' } })).text;

describe.each(CLIENTS)('%s', (label, connectClient) => {
  const modern = label.includes('2026-07-28');
  let client: AgentClient;
  let sessionId: () => string | undefined;
  beforeAll(async () => {
    ({ client, sessionId } = await connectClient(new URL(`${server.url}/mcp`)));
    // From now on the client checks each tool's structuredContent against its outputSchema.
    await client.listTools();
  });
  afterAll(() => client?.close());
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  describe('connecting', () => {
    it('connects (a 2025 client gets a session id, a 2026-07-28 one none) and gets the server info', () => {
      if (modern) expect(sessionId()).toBeUndefined();
      else expect(sessionId()).toMatch(/^v2\.\w+\.2025-11-25\.[\x21-\x7e]+$/);
      expect(client.getServerVersion()).toMatchObject({ name: 'reviews', version: '1.0.0', title: 'Acme & Sons <Roofing> reviews' });
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
      expect(client.getInstructions()).toContain('search_reviews');
    });

    // 2026-07-28 has no ping (the client refuses to send one).
    it.skipIf(modern)('answers ping', async () => {
      expect(await client.ping()).toEqual({});
    });
  });

  describe('tools/list', () => {
    it('lists the five tools, read-only, each with input and output schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['get_business', 'search_reviews', 'get_reviews_since', 'get_review', 'get_insights']);
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.description?.length, tool.name).toBeGreaterThan(80);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      }
    });

    it('names the technicians and services of the data, and gives the service ids as examples', async () => {
      const search = (await client.listTools()).tools.find((t) => t.name === 'search_reviews');
      expect(search?.description).toContain('Zoë Lund (id zoe-lund, also "Zoe", "Zoë")');
      expect(search?.description).toContain('gutters (Gutter installation)');
      const properties = search?.inputSchema.properties as Record<string, { enum?: string[]; examples?: string[]; type?: string }>;
      // Examples, not an enum: names and aliases are accepted too, and a client must not refuse them.
      expect(properties.mentions_service?.examples).toEqual(['roof-repair', 'gutters']);
      expect(properties.mentions_service?.enum).toBeUndefined();
      expect(properties.limit?.type).toBe('integer');
      expect(Object.keys(properties)).toEqual(['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset', 'fields']);
    });
  });

  describe('tools/call', () => {
    it('get_business gives the business and its rating, with a text copy', async () => {
      const result = await call('get_business');
      const dataset = JSON.parse(await httpGet('/reviews.json'));
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ business: dataset.business, aggregate_rating: dataset.aggregate_rating });
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    });

    it.each([
      ['', {}],
      ['?rating=5&limit=1', { rating: 5, limit: 1 }],
      ['?query=zoe', { query: 'zoe' }],
      ['?mentions_service=gutters', { mentions_service: 'gutters' }],
      ['?mentions_technician=Zo%C3%AB&min_rating=3', { mentions_technician: 'Zoë', min_rating: 3 }],
      ['?since=2023-01-15&until=2024-03-12&limit=1&offset=1', { since: '2023-01-15', until: '2024-03-12', limit: 1, offset: 1 }],
      ['?mentions_technician=Nobody', { mentions_technician: 'Nobody' }],
    ])('search_reviews answers exactly the body of GET /api/reviews/search%s', async (query, args) => {
      const result = await call('search_reviews', args);
      const body = await httpGet(`/api/reviews/search${query}`);
      expect(textOf(result)).toBe(body);
      expect(result.structuredContent).toEqual(JSON.parse(body));
    });

    it.each([
      ['?fields=id,rating,date,title,text&limit=3', { fields: 'id,rating,date,title,text', limit: 3 }],
      ['?fields=text&query=leak', { fields: 'text', query: 'leak' }],
    ])('search_reviews with fields answers the body of GET /api/reviews/search%s, id always kept', async (query, args) => {
      const result = await call('search_reviews', args);
      const body = await httpGet(`/api/reviews/search${query}`);
      expect(textOf(result)).toBe(body);
      const reviews = (result.structuredContent as { reviews: Record<string, unknown>[] }).reviews;
      expect(reviews.length).toBeGreaterThan(0);
      for (const review of reviews) expect(Object.keys(review)).toEqual(args.fields === 'text' ? ['id', 'text'] : ['id', 'rating', 'date', 'title', 'text']);
    });

    it('get_reviews_since with fields keeps only those, as GET /api/reviews/since?fields= does', async () => {
      const result = await call('get_reviews_since', { date: '2000-01-01', fields: 'rating' });
      const http = JSON.parse(await httpGet('/api/reviews/since/2000-01-01?fields=rating'));
      expect((result.structuredContent as { reviews: unknown[] }).reviews).toEqual(http.reviews);
      expect(http.reviews[0]).toEqual({ id: expect.any(String), rating: expect.any(Number) });
    });

    it('search_reviews answers "which technician gets the best reviews for gutter work?"', async () => {
      const gutters = await call('search_reviews', { mentions_service: 'gutters', limit: 100 });
      const reviews = (gutters.structuredContent as { reviews: { rating: number; technicians: { id: string }[] }[] }).reviews;
      expect(reviews.map((r) => [r.rating, r.technicians.map((t) => t.id)])).toEqual([[2, ['zoe-lund']]]);
    });

    it('get_reviews_since pages oldest first, with the total', async () => {
      const first = await call('get_reviews_since', { date: '2024-01-01', limit: 2 });
      expect(first.structuredContent).toMatchObject({ since: '2024-01-01', total: 3, count: 2, offset: 0, limit: 2 });
      expect(idsOf(first)).toEqual(['a-one', 'b-two']);
      const next = await call('get_reviews_since', { date: '2024-01-01', limit: 2, offset: 2 });
      expect(next.structuredContent).toMatchObject({ total: 3, count: 1, offset: 2 });
      expect(idsOf(next)).toEqual(['c-three']);
      const defaults = await call('get_reviews_since', { date: '2000-01-01' });
      expect(defaults.structuredContent).toMatchObject({ total: 4, count: 4, limit: 50, offset: 0 });
      expect(JSON.parse(await httpGet('/api/reviews/since/2000-01-01')).reviews).toEqual((defaults.structuredContent as { reviews: unknown[] }).reviews);
    });

    it('get_review gives one review as the dataset has it', async () => {
      const result = await call('get_review', { id: 'a-one' });
      const dataset = JSON.parse(await httpGet('/reviews.json'));
      expect(result.structuredContent).toEqual({ review: dataset.reviews.find((r: { id: string }) => r.id === 'a-one') });
    });

    it('get_insights gives the whole document or one section', async () => {
      const insights = JSON.parse(await httpGet('/insights.json'));
      expect((await call('get_insights')).structuredContent).toEqual(insights);
      for (const section of ['aspects', 'entities', 'topics', 'faq', 'rankings', 'analyzer', 'summary']) {
        expect((await call('get_insights', { section })).structuredContent, section).toEqual({ [section]: insights[section] });
      }
    });
  });

  describe('tool errors an agent can act on', () => {
    it.each([
      ['search_reviews', { rating: 9 }, /rating must be a whole number from 1 to 5/],
      ['search_reviews', { mentions_service: 'chimney' }, /known service ids are roof-repair, gutters/],
      ['search_reviews', { since: '2024-05-01', until: '2024-01-01' }, /since must not be after until/],
      ['search_reviews', { colour: 'red' }, /"colour" is not an argument of search_reviews/],
      ['get_reviews_since', {}, /date/],
      ['get_reviews_since', { date: '2024-02-30' }, /real calendar date/],
      ['get_reviews_since', { date: '2024-01-01', limit: 101 }, /limit must be a whole number from 1 to 100/],
      ['get_review', { id: 'd-hidden' }, /No published review has the id "d-hidden"/],
      ['get_review', {}, /id/],
      ['get_insights', { section: 'everything' }, /section must be one of aspects, entities, topics, faq, rankings, analyzer, summary/],
      ['get_business', { verbose: true }, /"verbose" is not an argument of get_business; it takes no arguments\./],
      ['search_reviews', { limt: 5 }, /"limt" is not an argument of search_reviews; its arguments are rating, .*, fields\. Did you mean "limit"\?/],
      ['search_reviews', { rating: 0 }, /rating must be a whole number from 1 to 5; got 0\./],
      ['search_reviews', { fields: 'id,colour' }, /fields must be a comma list of review fields \(id, url, rating, date, .*\); this one has "colour", not a field/],
      ['get_reviews_since', { date: '2024-01-01', fields: 'stars' }, /fields must be a comma list of review fields/],
    ])('%s %j is a tool error naming the fix', async (name, args, message) => {
      const result = await call(name, args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toMatch(message);
    });

    it('an unknown tool is a JSON-RPC invalid-params error listing the tools', async () => {
      const error = (await call('delete_reviews').catch((e: unknown) => e)) as { code: number; message: string };
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('get_business, search_reviews');
    });
  });

  describe('resources', () => {
    it('lists the three published documents with their URLs and types', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
        [`${TEST_SITE_URL}/reviews.json`, 'application/json'],
        [`${TEST_SITE_URL}/insights.json`, 'application/json'],
        [`${TEST_SITE_URL}/api/feed.json`, 'application/feed+json'],
      ]);
      for (const resource of resources) expect(resource.description, resource.uri).toBeTruthy();
    });

    it('reads each document with exactly the bytes GET serves', async () => {
      for (const [uri, path] of [
        [`${TEST_SITE_URL}/reviews.json`, '/reviews.json'],
        [`${TEST_SITE_URL}/insights.json`, '/insights.json'],
        [`${TEST_SITE_URL}/api/feed.json`, '/api/feed.json'],
      ] as const) {
        const { contents } = await client.readResource({ uri });
        expect(contents[0]).toMatchObject({ uri, text: await httpGet(path) });
      }
    });

    it('offers a template per review and reads it', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'reviews://review/{id}', mimeType: 'application/json' })]);
      const { contents } = await client.readResource({ uri: 'reviews://review/e-five' });
      expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ id: 'e-five', rating: 3 });
    });

    it('an unknown resource is a resource-not-found error', async () => {
      for (const uri of ['reviews://review/d-hidden', 'reviews://review/%E0%A4%A', `${TEST_SITE_URL}/feed.xml`, 'file:///etc/passwd']) {
        const error = await client.readResource({ uri }).catch((e: unknown) => e);
        expect((error as { code: number }).code, uri).toBe(-32602);
      }
    });
  });

  describe('prompts and completions', () => {
    it('lists the prompts with their arguments', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => [prompt.name, prompt.arguments?.map((a) => `${a.name}${a.required ? '*' : ''}`)])).toEqual([
        ['customer_feedback', ['subject*', 'since', 'until']],
        ['draft_reply', ['review_id*']],
      ]);
    });

    it('customer_feedback names the tool calls that answer it, with the arguments filled in', async () => {
      const technician = await client.getPrompt({ name: 'customer_feedback', arguments: { subject: 'Zoë Lund', since: '2024-01-01' } });
      const textOf = technician.messages[0]?.content.text ?? '';
      expect(textOf).toContain('the technician Zoë Lund (id zoe-lund) between 2024-01-01 and today');
      expect(textOf).toContain('search_reviews with {"mentions_technician":"zoe-lund","since":"2024-01-01","fields":"id,rating,date,title,text,aspects","limit":100}');
      const aspect = await client.getPrompt({ name: 'customer_feedback', arguments: { subject: 'cleanup' } });
      expect(aspect.messages[0]?.content.text).toContain('get_insights with {"section":"aspects"}');
      const service = await client.getPrompt({ name: 'customer_feedback', arguments: { subject: 'gutters' } });
      expect(service.messages[0]?.content.text).toContain('"mentions_service":"gutters"');
      // The spellings search accepts: aliases and names without accents.
      for (const subject of ['zoe', 'ZOE LUND', 'Zoë']) {
        const aliased = await client.getPrompt({ name: 'customer_feedback', arguments: { subject } });
        expect(aliased.messages[0]?.content.text, subject).toContain('the technician Zoë Lund (id zoe-lund)');
      }
      const byAlias = await client.getPrompt({ name: 'customer_feedback', arguments: { subject: 'gutter guards' } });
      expect(byAlias.messages[0]?.content.text).toContain('"mentions_service":"gutters"');
    });

    it('draft_reply carries the review itself and asks for the reply', async () => {
      const result = await client.getPrompt({ name: 'draft_reply', arguments: { review_id: 'a-one' } });
      expect(result.messages[0]?.content.resource?.uri).toBe('reviews://review/a-one');
      expect(JSON.parse(result.messages[0]?.content.resource?.text ?? '{}')).toMatchObject({ id: 'a-one', rating: 5 });
      expect(result.messages[1]?.content.text).toContain('already replied on 2024-03-20');
    });

    it('a bad prompt argument is invalid params, saying what is allowed', async () => {
      for (const [name, args, message] of [
        ['customer_feedback', { subject: 'chimney sweeping' }, /is no aspect, service or technician of this business; they are workmanship/],
        ['customer_feedback', { subject: 'cleanup', since: 'last year' }, /since must be a real calendar date written YYYY-MM-DD, e\.g\. 2024-03-12; got "last year"/],
        // What search_reviews would refuse is refused here, not written into the prompt's instructions.
        ['customer_feedback', { subject: 'cleanup', until: '2024-02-30' }, /until must be a real calendar date written YYYY-MM-DD, e\.g\. 2024-03-12; got "2024-02-30"/],
        ['customer_feedback', { subject: 'cleanup', since: '2025-01-01', until: '2024-01-01' }, /since must not be after until \(2024-01-01\)/],
        ['draft_reply', { review_id: 'd-hidden' }, /no published review has the id "d-hidden"/],
        ['write_poem', {}, /Unknown prompt: "write_poem". The prompts are customer_feedback, draft_reply/],
      ] as const) {
        const error = (await client.getPrompt({ name, arguments: args as Record<string, string> }).catch((e: unknown) => e)) as { code: number; message: string };
        expect(error.code, name).toBe(-32602);
        expect(error.message, name).toMatch(message);
      }
    });

    it('completes prompt arguments and the review template id from the data, by prefix', async () => {
      const subject = (value: string) => client.complete({ ref: { type: 'ref/prompt', name: 'customer_feedback' }, argument: { name: 'subject', value } });
      expect((await subject('zo')).completion.values).toEqual(['zoe-lund', 'Zoë Lund', 'Zoe', 'Zoë']);
      expect((await subject('gu')).completion.values).toEqual(['gutters', 'Gutter installation', 'gutter guards']);
      expect((await subject('clea')).completion.values).toEqual(['cleanup']);
      expect((await subject('')).completion.total).toBeGreaterThan(10);
      const reviewId = await client.complete({ ref: { type: 'ref/prompt', name: 'draft_reply' }, argument: { name: 'review_id', value: 'b' } });
      expect(reviewId.completion).toMatchObject({ values: ['b-two'], total: 1, hasMore: false });
      const template = await client.complete({ ref: { type: 'ref/resource', uri: 'reviews://review/{id}' }, argument: { name: 'id', value: '' } });
      expect(template.completion.values).toEqual(['a-one', 'b-two', 'c-three', 'e-five']);
    });
  });
});
