/**
 * `/server.json` as the MCP Registry and its clients read it: valid by the registry's own schema
 * (vendored in test/fixtures/mcp-registry, no network), pointing at this server's `/mcp`, listing
 * the versions it serves, and linked from the machine guide of the page for developers.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import registrySchema from '../fixtures/mcp-registry/server.schema.json' with { type: 'json' };
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
