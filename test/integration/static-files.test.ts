import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { TEST_SITE_URL } from '../support/build.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('smallBuild'));
});
afterAll(() => server?.stop());

const TOPICS = [
  ['/reviews.json', 'application/json'],
  ['/api/feed.json', 'application/json'],
  ['/feed.xml', 'application/atom+xml'],
] as const;

describe('pre-rendered documents over HTTP', () => {
  it.each<readonly [string, string]>([...TOPICS, ['/insights.json', 'application/json'], ['/.well-known/openapi.json', 'application/json']])(
    '%s is served as %s with CORS and a strong ETag',
    async (path, type) => {
      const res = await rawRequest(server.url + path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(res.headers['last-modified']).toBe('Wed, 01 May 2024 00:00:00 GMT');
      expect(res.headers['cache-control']).toMatch(/public/);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    },
  );

  it.each(TOPICS)('%s links its hub, itself and the OpenAPI document', async (path) => {
    const res = await rawRequest(server.url + path);
    const link = String(res.headers.link);
    expect(link).toContain(`<${TEST_SITE_URL}/api/websub/hub>; rel="hub"`);
    expect(link).toContain(`<${TEST_SITE_URL}${path}>; rel="self"`);
    expect(link).toContain(`<${TEST_SITE_URL}/.well-known/openapi.json>; rel="service-desc"`);
  });

  it('the home page links the OpenAPI document, and no hub: it is not a WebSub topic', async () => {
    const res = await rawRequest(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(res.headers.link)).toContain('rel="service-desc"');
    expect(res.text).toContain('rel="service-desc"');
    // A discovery client would subscribe to the page itself and get a 400 from the hub.
    expect(String(res.headers.link)).not.toContain('rel="hub"');
    expect(res.text).not.toMatch(/rel="?hub/);
    // The feeds (the topics) are advertised instead.
    expect(res.text).toContain(`href="${TEST_SITE_URL}/feed.xml"`);
  });

  it.each(['/', '/insights', '/developers'])('the page %s is a file of the build: a strong ETag, and brotli with the same text', async (path) => {
    const plain = await rawRequest(server.url + path, { headers: { 'Accept-Encoding': 'identity' } });
    const br = await rawRequest(server.url + path, { headers: { 'Accept-Encoding': 'br' } });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(plain.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(plain.text).toContain('<nav aria-label="Site">');
  });

  it('serves brotli and gzip with the same bytes and their own ETags', async () => {
    const plain = await rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'identity' } });
    const br = await rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    const gz = await rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
    expect(br.body.length).toBeLessThan(plain.body.length);
  });

  it('answers 406 when Accept-Encoding refuses every available encoding', async () => {
    const res = await rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'identity;q=0, gzip;q=0, br;q=0, *;q=0' } });
    expect(res.status).toBe(406);
  });

  it('honours q=0 in Accept-Encoding', async () => {
    const res = await rawRequest(`${server.url}/reviews.json`, { headers: { 'Accept-Encoding': 'br;q=0, gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});

describe('conditional GET', () => {
  it('answers 304 with an empty body and the same validators for a matching If-None-Match', async () => {
    const first = await rawRequest(`${server.url}/reviews.json`);
    const etag = String(first.headers.etag);
    const again = await rawRequest(`${server.url}/reviews.json`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['last-modified']).toBe(first.headers['last-modified']);
  });

  it('matches weakly, in lists and with *', async () => {
    const etag = String((await rawRequest(`${server.url}/feed.xml`)).headers.etag);
    for (const header of [`W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await rawRequest(`${server.url}/feed.xml`, { headers: { 'If-None-Match': header } });
      expect(res.status, header).toBe(304);
    }
  });

  it('a cached compressed copy is still current', async () => {
    const br = await rawRequest(`${server.url}/api/feed.json`, { headers: { 'Accept-Encoding': 'br' } });
    const res = await rawRequest(`${server.url}/api/feed.json`, { headers: { 'If-None-Match': String(br.headers.etag) } });
    expect(res.status).toBe(304);
  });

  it('a different ETag gets the full document', async () => {
    const res = await rawRequest(`${server.url}/reviews.json`, { headers: { 'If-None-Match': '"0123456789abcdef0123456789abcdef"' } });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });

  it('If-Modified-Since gives 304 at or after Last-Modified and 200 before it', async () => {
    const at = await rawRequest(`${server.url}/reviews.json`, { headers: { 'If-Modified-Since': 'Wed, 01 May 2024 00:00:00 GMT' } });
    const after = await rawRequest(`${server.url}/reviews.json`, { headers: { 'If-Modified-Since': 'Sat, 01 Jun 2024 00:00:00 GMT' } });
    const before = await rawRequest(`${server.url}/reviews.json`, { headers: { 'If-Modified-Since': 'Tue, 30 Apr 2024 23:59:59 GMT' } });
    const garbage = await rawRequest(`${server.url}/reviews.json`, { headers: { 'If-Modified-Since': 'yesterday' } });
    expect([at.status, after.status, before.status, garbage.status]).toEqual([304, 304, 200, 200]);
  });

  it('If-None-Match wins over If-Modified-Since', async () => {
    const res = await rawRequest(`${server.url}/reviews.json`, {
      headers: { 'If-None-Match': '"stale"', 'If-Modified-Since': 'Sat, 01 Jun 2030 00:00:00 GMT' },
    });
    expect(res.status).toBe(200);
  });
});

describe('errors', () => {
  it('an unknown /api/ path is a JSON 404 for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await rawRequest(`${server.url}/api/nothing/here`, { method });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'not_found', message: expect.stringContaining('/api/nothing/here') });
    }
  });

  it('a wrong method on a document is 405 with Allow', async () => {
    const res = await rawRequest(`${server.url}/api/feed.json`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(res.text).error).toBe('method_not_allowed');
  });

  it('HEAD gives the headers without a body', async () => {
    const res = await rawRequest(`${server.url}/reviews.json`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
  });

  it("answers a browser's CORS preflight for a conditional GET", async () => {
    const res = await rawRequest(`${server.url}/reviews.json`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toBe('if-none-match');
    expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
  });

  it('a malformed percent-encoding is not a 5xx', async () => {
    const res = await rawRequest(`${server.url}/api/%E0%A4%A`);
    expect(res.status).toBeLessThan(500);
  });
});

describe('clients that leave early', () => {
  /** Sends a GET and half-closes at once (a client that sends its request, then shuts its side), reading what comes back. */
  function getThenHalfClose(path: string): Promise<void> {
    return new Promise((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.end(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
      socket.resume();
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
  }

  /** Reads the first chunk of the body, then drops the connection. */
  function getThenAbort(path: string): Promise<void> {
    return new Promise((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
      socket.once('data', () => socket.destroy());
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
  }

  it.each(['/reviews.json', '/', '/feed.xml'])('%s is still served whole to the next client (the shared file handle stays open)', async (path) => {
    const before = await rawRequest(server.url + path);
    expect(before.status).toBe(200);
    for (let round = 0; round < 3; round++) {
      await getThenHalfClose(path);
      await getThenAbort(path);
    }
    const after = await rawRequest(server.url + path);
    expect(after.status).toBe(200);
    expect(after.body.equals(before.body)).toBe(true);
  });
});

describe('other spellings of a file', () => {
  /** A target sent exactly as written (rawRequest's URL parser would normalise it). */
  function getRaw(target: string): Promise<{ status: number; type: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
        const type = /\r\ncontent-type: ([^\r]*)/i.exec(text)?.[1];
        resolve({ status, type, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
      });
      socket.on('error', reject);
    });
  }

  it.each(['//reviews.json', '//feed.xml', '/%2freviews.json', '/reviews/..%2freviews.json', '/api/..%2freviews.json', '/reviews.json.br', '/reviews.json.gz', '/feed.xml.gz', '/index.html.br'])(
    '%s is a JSON 404, not the file through Astro\'s own static handler (the start-up build\'s copy, without our headers, a raw .br as octet-stream)',
    async (target) => {
      const res = await getRaw(target);
      expect(res.status, target).toBe(404);
      expect(res.type).toBe('application/json');
      expect(JSON.parse(res.body)).toMatchObject({ error: 'not_found' });
    },
  );

  it('the Astro routes and the 404 page are still Astro\'s', async () => {
    expect((await getRaw('/reviews?rating=5')).status).toBe(200);
    const missing = await getRaw('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.type).toMatch(/^text\/html/);
  });
});

