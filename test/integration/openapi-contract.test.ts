/**
 * The OpenAPI document as served is the contract: real answers of the running
 * server validate against its schemas, the parameters' documented bounds are the
 * ones the server enforces, and `redocly lint` finds no error in it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SEARCH_PARAMETERS } from '../../src/domain/schemas/search.ts';
import { WIDGET_PARAMETERS } from '../../src/domain/schemas/widget.ts';
import { PROJECT_ROOT } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

interface Parameter {
  name: string;
  in: string;
  schema: { type?: string; minimum?: number; maximum?: number; default?: unknown; enum?: string[]; examples?: string[] };
}

let server: RunningServer;
let doc: { paths: Record<string, { get: { parameters: Parameter[] } }> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
  doc = JSON.parse((await rawRequest(`${server.url}/.well-known/openapi.json`)).text);
  ajv.addSchema(doc, 'openapi.json');
});
afterAll(() => server?.stop());

const pointer = (route: string, status: string) =>
  `openapi.json#/paths/${route.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/${status}/content/application~1json/schema`;

async function expectValid(route: string, url: string, status: number) {
  const res = await rawRequest(server.url + url);
  expect(res.status, url).toBe(status);
  const validate = ajv.getSchema(pointer(route, String(status)));
  if (!validate) throw new Error(`no schema for ${route} ${status}`);
  const body = JSON.parse(res.text);
  expect(validate(body), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return body;
}

describe('responses match the OpenAPI document', () => {
  it.each(['', '?query=zoe&limit=1', '?mentions_technician=nobody', '?since=2024-01-01&until=2024-12-31&min_rating=2.5&offset=1'])(
    'search 200: %s',
    async (query) => {
      await expectValid('/api/reviews/search', `/api/reviews/search${query}`, 200);
    },
  );

  it.each(['?rating=9', '?min_rate=1', '?since=2024-02-30&limit=0&limit=1', '?mentions_service=nope'])('search 400: %s', async (query) => {
    const body = await expectValid('/api/reviews/search', `/api/reviews/search${query}`, 400);
    expect(body.issues.length).toBeGreaterThan(0);
  });

  it.each(['2000-01-01', '2024-05-01', '2099-12-31'])('since 200: %s', async (date) => {
    await expectValid('/api/reviews/since/{date}', `/api/reviews/since/${date}`, 200);
  });

  it.each(['2024-02-30', 'soon', '2024-01-01?x=1'])('since 400: %s', async (date) => {
    await expectValid('/api/reviews/since/{date}', `/api/reviews/since/${date}`, 400);
  });

  it.each(['', '?limit=1&sort=best', '?mentions_service=gutters&min_rating=4'])('widget 200: %s', async (query) => {
    const body = await expectValid('/api/widget', `/api/widget${query}`, 200);
    expect(body.reviews.length).toBeLessThanOrEqual(20);
  });

  it.each(['?limit=21', '?sort=top', '?offset=1'])('widget 400: %s', async (query) => {
    await expectValid('/api/widget', `/api/widget${query}`, 400);
  });

  it('the schemas are not vacuous: a body missing a field fails', () => {
    const validate = ajv.getSchema(pointer('/api/reviews/search', '200'));
    expect(validate?.({ count: 0, offset: 0, limit: 20, reviews: [] })).toBe(false);
    // A review may be cut to the fields asked for, but never lose its id nor hold a field of the wrong kind.
    expect(validate?.({ total: 1, count: 1, offset: 0, limit: 20, reviews: [{ rating: 5 }] })).toBe(false);
    expect(validate?.({ total: 1, count: 1, offset: 0, limit: 20, reviews: [{ id: 'x', rating: 'five' }] })).toBe(false);
    expect(validate?.({ total: 1, count: 1, offset: 0, limit: 20, reviews: [{ id: 'x', rating: 5 }] })).toBe(true);
  });
});

describe('every status a route answers is documented, with its body', () => {
  const documented = (route: string) => Object.keys((doc.paths as unknown as Record<string, { get: { responses: object } }>)[route]?.get.responses ?? {});
  it.each([
    ['/api/reviews/search', ['', '?rating=9', '?min_rate=1', '?query=%zz', '?limit=1&limit=2', '?mentions_service=nope']],
    ['/api/reviews/since/{date}', ['2024-01-01', '', '2024-02-30', 'soon', '2024/01/01', '2024-01-01/', '2024-01-01?limit=1', '%E0%A4%A']],
  ])('%s', async (route, probes) => {
    const base = route.replace('{date}', '');
    const seen = new Set<string>();
    for (const probe of probes) {
      const url = route.includes('{date}') ? `${base}${probe}` : `${route}${probe}`;
      const res = await rawRequest(server.url + url);
      seen.add(String(res.status));
      expect(documented(route), `${url} answers ${res.status}`).toContain(String(res.status));
      const validate = ajv.getSchema(pointer(route, String(res.status)));
      expect(validate?.(JSON.parse(res.text)), `${url}: ${ajv.errorsText(validate?.errors)}`).toBe(true);
    }
    if (route.includes('{date}')) {
      const first = await rawRequest(`${server.url}${base}2024-01-01`);
      const again = await rawRequest(`${server.url}${base}2024-01-01`, { headers: { 'If-None-Match': first.headers.etag as string } });
      expect(again.status).toBe(304);
      seen.add('304');
    }
    // The probes reach every documented answer: the list is neither short nor padded.
    expect([...seen].sort()).toEqual(documented(route).sort());
  });
});

describe('the documented 405s are the answers', () => {
  it.each([
    ['post', '/api/reviews/search', '/api/reviews/search'],
    ['post', '/api/reviews/since/{date}', '/api/reviews/since/2024-01-01'],
    ['post', '/api/widget', '/api/widget'],
    ['get', '/mcp', '/mcp'],
    ['delete', '/mcp', '/mcp'],
  ])('%s %s', async (method, route, url) => {
    const operation = (doc.paths as unknown as Record<string, Record<string, { responses: Record<string, { headers: { Allow: { schema: { const: string } } } }> }>>)[route]?.[method];
    expect(Object.keys(operation?.responses ?? {})).toEqual(['405']);
    const body = method === 'post' ? { headers: { 'Content-Type': 'application/json' }, body: '{}' } : {};
    const res = await rawRequest(server.url + url, { method: method.toUpperCase(), ...body });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(operation?.responses['405']?.headers.Allow.schema.const);
  });
});

describe('the documented parameters are the enforced ones', () => {
  it('search documents every parameter the server reads, and no other', () => {
    const names = doc.paths['/api/reviews/search']?.get.parameters.map((p) => p.name);
    expect(names).toEqual(SEARCH_PARAMETERS);
  });

  it('the widget documents every parameter its route reads, and no other', () => {
    const names = doc.paths['/api/widget']?.get.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    expect(names).toEqual(WIDGET_PARAMETERS);
  });

  it('each numeric bound holds: at the bound 200, past it 400 naming the parameter', async () => {
    const numeric = (doc.paths['/api/reviews/search']?.get.parameters ?? []).filter((p) => p.schema.minimum !== undefined);
    expect(numeric.map((p) => p.name).sort()).toEqual(['limit', 'min_rating', 'offset', 'rating']);
    for (const { name, schema } of numeric) {
      const step = schema.type === 'integer' ? 1 : 0.01;
      const cases: [number, number][] = [[schema.minimum as number, 200], [(schema.minimum as number) - step, 400]];
      if (schema.maximum !== undefined && schema.maximum < 1e6) cases.push([schema.maximum, 200], [schema.maximum + step, 400]);
      for (const [value, status] of cases) {
        const res = await rawRequest(`${server.url}/api/reviews/search?${name}=${value}`);
        expect(res.status, `${name}=${value}`).toBe(status);
        if (status === 400) expect(JSON.parse(res.text).issues[0].path).toBe(name);
      }
    }
  });

  it('limit defaults to the documented default; mentions_service gives the service ids as examples', async () => {
    const params = doc.paths['/api/reviews/search']?.get.parameters ?? [];
    const limit = params.find((p) => p.name === 'limit');
    expect(JSON.parse((await rawRequest(`${server.url}/api/reviews/search`)).text).limit).toBe(limit?.schema.default);
    const service = params.find((p) => p.name === 'mentions_service')?.schema;
    expect(service?.examples).toEqual(['roof-repair', 'gutters']);
    expect(service?.enum).toBeUndefined();
  });
});

describe('redocly lint (recommended rules)', () => {
  it('reports no error and no warning in the built document', () => {
    const file = path.join(inject('smallBuild'), 'client/.well-known/openapi.json');
    const cli = path.join(PROJECT_ROOT, 'node_modules/@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 90_000,
    });
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number };
      problems: { severity: string; ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 1)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // The one deliberate exception: a method a path refuses is documented as an operation
    // whose only answer is its 405 (POST on search, since and the widget, GET and DELETE on /mcp).
    const refusedOnly = (pointer: string) => {
      const [, path, method] = /^#\/paths\/([^/]+)\/([a-z]+)\/responses$/.exec(pointer) ?? [];
      const operation = path && method ? (doc.paths as unknown as Record<string, Record<string, { responses?: object }>>)[path.replaceAll('~1', '/').replaceAll('~0', '~')]?.[method] : undefined;
      return Object.keys(operation?.responses ?? {}).join() === '405';
    };
    const warnings = report.problems.filter((p) => !(p.ruleId === 'operation-2xx-response' && p.location.every((l) => refusedOnly(l.pointer))));
    expect(warnings.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.problems.length - warnings.length).toBe(5);
  }, 90_000);
});
