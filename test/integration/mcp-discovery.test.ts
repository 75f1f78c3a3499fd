/**
 * `/server.json` as the MCP Registry and its clients read it: valid by the registry's own schema
 * (vendored in test/fixtures/mcp-registry, no network), pointing at this server's `/mcp`, listing
 * the versions it serves, and linked from the machine guide of the page for developers. The server
 * card and the catalog of the server-card extension (schema vendored in test/fixtures/mcp-server-card),
 * and that they agree with /server.json and server/discover.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Ajv2020 } from 'ajv/dist/2020.js';
import registrySchema from '../fixtures/mcp-registry/server.schema.json' with { type: 'json' };
import cardSchema from '../fixtures/mcp-server-card/server-card.schema.json' with { type: 'json' };
import { CACHE_DOCUMENT } from '../../src/server/http/public-headers.ts';
import { PROTOCOL_VERSIONS } from '../../src/domain/mcp-protocol-versions.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { TEST_SITE_URL } from '../support/build.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

interface ServerJson {
  $schema: string;
  name: string;
  version: string;
  description: string;
  remotes: { type: string; url: string }[];
  _meta: Record<string, { supportedProtocolVersions: string[] }>;
}

describe('/server.json (MCP Registry server.json)', () => {
  it('is served as JSON with CORS, a strong ETag and the same bytes each time', async () => {
    const res = await rawRequest(`${server.url}/server.json`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await rawRequest(`${server.url}/server.json`);
    expect(again.text).toBe(res.text);
  });

  it('validates against the registry schema its $schema names, and says what a registry and a client read', async () => {
    const doc = JSON.parse((await rawRequest(`${server.url}/server.json`)).text) as ServerJson;
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    expect(ajv.validate(registrySchema, doc), JSON.stringify(ajv.errors)).toBe(true);
    expect(doc.$schema).toBe(registrySchema.$id);
    expect(doc.name).toBe('test.example.reviews/reviews');
    expect(doc.version).toBe(packageJson.version);
    expect(doc.description.length).toBeLessThanOrEqual(100);
    expect(doc.remotes).toEqual([{ type: 'streamable-http', url: `${TEST_SITE_URL}/mcp` }]);
    expect(doc._meta['io.modelcontextprotocol.registry/publisher-provided']?.supportedProtocolVersions).toEqual([...PROTOCOL_VERSIONS]);
  });

  it('names the version the MCP server gives in initialize', async () => {
    const res = await rawRequest(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }),
    });
    expect(res.status).toBe(200);
    const doc = JSON.parse((await rawRequest(`${server.url}/server.json`)).text) as ServerJson;
    expect((JSON.parse(res.text) as { result: { serverInfo: { version: string } } }).result.serverInfo.version).toBe(doc.version);
  });

  it('the page for developers links it from the machine guide', async () => {
    const res = await rawRequest(`${server.url}/developers`);
    expect(res.text).toContain(`href="${TEST_SITE_URL}/server.json"`);
  });
});

/** The catalog's members as the extension's docs/discovery.md lists them (its schema file defines the card only). */
const CATALOG_SCHEMA = {
  type: 'object',
  required: ['specVersion', 'entries'],
  properties: {
    specVersion: { type: 'string' },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['identifier', 'type', 'url'],
        properties: {
          identifier: { type: 'string', pattern: '^urn:air:[^:]+:[^:]+:[^:]+$' },
          type: { const: 'application/mcp-server-card+json' },
          url: { type: 'string', format: 'uri' },
        },
      },
    },
  },
};

describe('the MCP server card and the catalog (SEP-2127)', () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema(cardSchema, 'server-card');
  const validateCard = ajv.getSchema('server-card#/$defs/ServerCard');
  const validateCatalog = ajv.compile(CATALOG_SCHEMA);

  it('/mcp/server-card validates against the extension schema and says what /server.json and server/discover say', async () => {
    const res = await rawRequest(`${server.url}/mcp/server-card`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/mcp-server-card+json');
    const card = JSON.parse(res.text) as ServerJson & { title: string; websiteUrl: string; remotes: { supportedProtocolVersions: string[] }[] };
    expect(validateCard?.(card), JSON.stringify(validateCard?.errors)).toBe(true);
    const doc = JSON.parse((await rawRequest(`${server.url}/server.json`)).text) as ServerJson & { title: string; websiteUrl: string };
    expect(card).toMatchObject({ name: doc.name, title: doc.title, description: doc.description, version: doc.version, websiteUrl: doc.websiteUrl });
    expect(card.remotes).toEqual([{ ...doc.remotes[0], supportedProtocolVersions: [...PROTOCOL_VERSIONS] }]);
    const discover = await rawRequest(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    const result = (JSON.parse(discover.text) as { result: { supportedVersions: string[]; _meta: Record<string, { title: string; version: string }> } }).result;
    expect(result.supportedVersions).toEqual(card.remotes[0]?.supportedProtocolVersions);
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ title: card.title, version: card.version });
  });

  it.each(['/.well-known/mcp/catalog.json', '/.well-known/ai-catalog.json'])('%s lists the card, valid by the extension\'s catalog format', async (path) => {
    const res = await rawRequest(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(path.endsWith('ai-catalog.json') ? 'application/ai-catalog+json' : 'application/json');
    const catalog = JSON.parse(res.text) as { entries: { identifier: string; url: string }[] };
    expect(validateCatalog(catalog), JSON.stringify(validateCatalog.errors)).toBe(true);
    expect(catalog.entries).toEqual([{ identifier: 'urn:air:reviews.example.test:mcp:reviews', type: 'application/mcp-server-card+json', url: `${TEST_SITE_URL}/mcp/server-card` }]);
  });

  it.each(['/mcp/server-card', '/.well-known/mcp/catalog.json'])('%s is cached like the documents: CORS, a strong ETag, 304 on If-None-Match', async (path) => {
    const res = await rawRequest(`${server.url}${path}`);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe(CACHE_DOCUMENT);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await rawRequest(`${server.url}${path}`, { headers: { 'If-None-Match': res.headers.etag as string } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});
