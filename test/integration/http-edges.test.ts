/**
 * Requests at the edges of HTTP, over real HTTP: malformed percent-encoding gets
 * the API's full error shape with issues naming the parameter, and an
 * absolute-form request target (RFC 9112 3.2.2) is served as its path.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RawResponse } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

/** A request whose target is sent exactly as given (node:http writes `path` verbatim). */
function sendTarget(target: string, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path: target, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${target}`)));
    req.on('error', reject);
    req.end();
  });
}

interface ErrorBody {
  error: string;
  message: string;
  issues: { path: string; code: string; message: string }[];
}

function errorBody(res: RawResponse): ErrorBody {
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(['error', 'issues', 'message']);
  return body;
}

describe('malformed percent-encoding', () => {
  it.each([
    ['/api/reviews/search?query=%zz', 'query', '%zz'],
    ['/api/reviews/search?rating=5&query=roof%E0%A4', 'query', 'roof%E0%A4'],
    ['/api/reviews/search?query=%C0%AF', 'query', '%C0%AF'],
    ['/api/reviews/search?li%mit=3', 'li%mit', 'li%mit'],
    ['/api/reviews/since/2024-01-01?x=%', 'x', '%'],
    ['/api/reviews/since/2024-01-%ZZ', 'date', '2024-01-%ZZ'],
  ])('%s: 400 invalid_query with an issue naming %s', async (target, path, raw) => {
    const body = errorBody(await sendTarget(target));
    expect(body.error).toBe('invalid_query');
    expect(body.issues).toEqual([{ path, code: 'malformed_percent_encoding', message: expect.stringContaining(JSON.stringify(raw)) }]);
    expect(body.message).toContain(path);
  });

  it('any other path: the same shape, naming the URL', async () => {
    const body = errorBody(await sendTarget('/reviews%zz.json'));
    expect(body.issues[0]).toMatchObject({ path: 'url', code: 'malformed_percent_encoding' });
  });

  it('well-formed encodings still search', async () => {
    const res = await sendTarget('/api/reviews/search?query=%67utters&rating=5');
    expect(res.status).toBe(200);
  });
});

describe('request target forms (RFC 9112 3.2)', () => {
  it('answers an absolute-form target as its origin-form path', async () => {
    const absolute = await sendTarget(`http://reviews.example.test/api/reviews/search?rating=5`);
    const origin = await sendTarget('/api/reviews/search?rating=5');
    expect(absolute.status).toBe(200);
    expect(absolute.headers['content-type']).toBe('application/json');
    expect(absolute.text).toBe(origin.text);
  });

  it('absolute-form reaches every kind of route: pre-rendered files, since and Astro', async () => {
    const host = `http://127.0.0.1:${server.port}`;
    expect((await sendTarget(`${host}/reviews.json`)).text).toBe((await sendTarget('/reviews.json')).text);
    expect((await sendTarget(`${host}/api/reviews/since/2020-01-01`)).status).toBe(200);
    expect((await sendTarget(`${host}/api/health`)).status).toBe(200);
    const missing = await sendTarget(`${host}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
  });

  it('refuses a target in no form it serves with a JSON 400', async () => {
    for (const target of ['ftp://host/x', '*', 'http://[::1/x']) {
      const body = errorBody(await sendTarget(target));
      expect(body.issues[0]).toMatchObject({ path: 'request-target', code: 'invalid_request_target' });
    }
  });

  it("what Node's parser refuses gets the JSON error too (a relative target, an oversized head)", async () => {
    const relative = errorBody(await sendTarget('api/reviews/search'));
    expect(relative.issues[0]).toMatchObject({ path: 'request', code: 'hpe_invalid_url' });
    const long = await sendTarget(`/api/reviews/search?query=${'x'.repeat(20_000)}`);
    expect(long.status).toBe(431);
    expect(JSON.parse(long.text)).toMatchObject({ error: 'bad_request', issues: [{ path: 'request' }] });
  });

  it('answers OPTIONS * like a preflight', async () => {
    expect((await sendTarget('*', 'OPTIONS')).status).toBe(204);
  });

  it('the review browser answers a malformed query with its own page naming the parameter (a page for people, not JSON)', async () => {
    const res = await sendTarget('/reviews?query=%zz');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<form');
    expect(res.text).toMatch(/query[^<]*malformed|malformed[^<]*query/i);
    // Well-formed escapes of bytes that are not UTF-8 (a lone surrogate, an overlong form, a stray byte) too.
    for (const [target, name] of [['/reviews?query=%ED%A0%80', 'query'], ['/reviews?rating=5&since=%C0%AF', 'since'], ['/reviews?query=ok&page=%FF', 'page']]) {
      const bad = await sendTarget(target as string);
      expect(bad.status, target).toBe(400);
      expect(bad.headers['content-type'], target).toMatch(/^text\/html/);
      expect(bad.text, target).toContain('<form');
      expect(bad.text, target).toContain(`${name} has a malformed percent-encoding`);
    }
    // The path itself stays guarded: a broken path is the JSON 400 as everywhere else.
    expect((await sendTarget('/reviews%zz')).status).toBe(400);
  });
});

describe('methods no route serves', () => {
  it.each(['/reviews', '/api/reviews/search', '/api/reviews/since/2024-01-01', '/api/health', '/api/websub/hub', '/no/such/page'])(
    'TRACE on %s: a JSON 405 with Allow, not a 500',
    async (path) => {
      const res = await sendTarget(path, 'TRACE');
      expect(res.status).toBe(405);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers.allow).toBe(path === '/api/websub/hub' ? 'POST' : 'GET, HEAD');
      expect(JSON.parse(res.text)).toEqual({ error: 'method_not_allowed', message: expect.stringContaining('TRACE is not allowed') });
    },
  );

  it('the review browser answers GET and HEAD only: other methods get a JSON 405 with Allow, not the page', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND']) {
      const res = await sendTarget('/reviews?rating=5', method);
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(JSON.parse(res.text)).toEqual({ error: 'method_not_allowed', message: `${method} is not allowed here; use GET or HEAD.` });
    }
    const head = await sendTarget('/reviews?rating=5', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('HEAD /api/health is answered as GET is (RFC 9110: every general-purpose server supports HEAD), without a body', async () => {
    const get = await sendTarget('/api/health');
    const head = await sendTarget('/api/health', 'HEAD');
    expect([get.status, head.status]).toEqual([200, 200]);
    expect(head.headers['content-type']).toBe('application/json');
    expect(head.body.length).toBe(0);
    const post = await sendTarget('/api/health', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('CONNECT gets a JSON 405 rather than a dropped connection, and the server goes on', async () => {
    for (const target of ['127.0.0.1:80', '/reviews']) {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
        let text = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 405 /);
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { error: string; message: string };
      expect(body).toEqual({ error: 'method_not_allowed', message: expect.stringContaining('CONNECT') });
    }
    expect((await sendTarget('/api/reviews/search?limit=1')).status).toBe(200);
  });
});

describe('the Host header', () => {
  it('more than one Host line is a JSON 400 naming Host on every route (Node would keep the first and drop the rest)', async () => {
    for (const path of ['/mcp', '/api/reviews/search', '/reviews.json', '/reviews']) {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () =>
          socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`),
        );
        let text = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(reply, path).toMatch(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { issues: { path: string; code: string }[] };
      expect(body.issues).toEqual([{ path: 'Host', code: 'repeated_header', message: expect.stringContaining('more than one Host header') }]);
    }
  });
});

