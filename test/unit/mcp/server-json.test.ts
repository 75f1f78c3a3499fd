import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import registrySchema from '../../fixtures/mcp-registry/server.schema.json' with { type: 'json' };
import { serverJson, serverJsonName } from '../../../src/domain/mcp-server-json.ts';

const validate = (doc: unknown) => {
  const ajv = new Ajv({ strict: false });
  addFormats.default(ajv);
  return { ok: ajv.validate(registrySchema, doc), errors: JSON.stringify(ajv.errors) };
};

describe('serverJson', () => {
  it('names the server in reverse DNS from the host, without port or path', () => {
    expect(serverJsonName('https://reviews.acme-roofing.com/')).toBe('com.acme-roofing.reviews/reviews');
    expect(serverJsonName('http://localhost:4321')).toBe('localhost/reviews');
  });

  it('keeps description and title within the schema limits for a long business name, counting characters', () => {
    const doc = serverJson({ siteUrl: 'https://r.example.com', businessName: 'Ø'.repeat(150), version: '1.0.0' });
    expect(Array.from(doc.title)).toHaveLength(100);
    expect(Array.from(doc.description)).toHaveLength(100);
    expect(doc.description.endsWith('…')).toBe(true);
    const result = validate(doc);
    expect(result.ok, result.errors).toBe(true);
  });

  it('is the same bytes for the same input', () => {
    const input = { siteUrl: 'https://r.example.com/', businessName: 'Acme', version: '2.0.0' };
    expect(JSON.stringify(serverJson(input))).toBe(JSON.stringify(serverJson(input)));
    expect(serverJson(input).remotes).toEqual([{ type: 'streamable-http', url: 'https://r.example.com/mcp' }]);
  });
});
