/** The steps that read or write bytes, on their own route behind the pipeline over real HTTP. */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ascii } from '../../../../src/domain/byte-string.ts';
import { route } from '../../../../src/server/http/route.ts';
import { requestBody } from '../../../../src/server/http/steps/request-body.ts';
import { serveRoute } from '../../../support/route-server.ts';

describe('request-body', () => {
  it('reads a body up to the limit, and refuses a larger one in the route\'s words, by length or as it streams', async () => {
    const server = await serveRoute(
      route({
        name: 'echo',
        path: '/echo',
        methods: ['POST'],
        steps: [requestBody(10, () => ({ status: 413, headers: {}, body: 'too large' }))],
        handle: ({ body }) => ({ status: 200, headers: {}, body: `[${body}]` }),
      }),
    );
    expect(await server.send('POST', '/echo', { body: 'Zoë ok' })).toMatchObject({ status: 200, text: '[Zoë ok]' });
    expect(await server.send('POST', '/echo', { body: 'x'.repeat(11) })).toMatchObject({ status: 413, text: 'too large' });
    // No Content-Length: the limit is found while reading.
    expect(await server.send('POST', '/echo', { body: 'y'.repeat(50), headers: { 'Transfer-Encoding': 'chunked' } })).toMatchObject({ status: 413 });
  });
});

describe('compression and the writer', () => {
  const body = JSON.stringify({ words: 'roof '.repeat(500) });
  const parts = [ascii(body.slice(0, 100)), ascii(body.slice(100))];

  it('compresses for a client that asks, with an ETag of its own for the compressed bytes; HEAD gets the headers only', async () => {
    const server = await serveRoute(
      route({
        name: 'doc',
        path: '/doc',
        methods: ['GET', 'HEAD'],
        compress: 'if-accepted',
        handle: () => ({ status: 200, headers: { 'Content-Type': 'application/json', ETag: '"abc"', Vary: 'Accept-Encoding' }, body: { bytes: parts } }),
      }),
    );
    const plain = await server.send('GET', '/doc');
    expect([plain.status, plain.text, plain.headers.etag, plain.headers['content-length'], plain.headers['content-encoding']]).toEqual([
      200, body, '"abc"', String(body.length), undefined,
    ]);
    const gzip = await server.send('GET', '/doc', { headers: { 'Accept-Encoding': 'gzip' } });
    expect([gzip.headers['content-encoding'], gzip.headers.etag, gzip.headers.vary]).toEqual(['gzip', '"abc-gzip"', 'Accept-Encoding']);
    expect(gunzipSync(gzip.body).toString()).toBe(body);
    const head = await server.send('HEAD', '/doc');
    expect([head.status, head.text, head.headers['content-length']]).toEqual([200, '', String(body.length)]);
  });
});
