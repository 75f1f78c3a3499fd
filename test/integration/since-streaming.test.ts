/** A body in parts (a big sync listing) goes out a chunk at a time, whole and in order. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toByteString } from '../../src/domain/byte-string.ts';
import { writeAnswer, type Answer } from '../../src/server/http/answer.ts';
import { rawRequest } from '../support/http.ts';

// 3,000 parts of about 2 KB: 6 MB, far more than a socket takes without draining.
const text = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"text":"${'é'.repeat(1000)}"},`);
const parts = text.map(toByteString);
const answer: Answer = { status: 200, headers: { 'Content-Type': 'application/json' }, body: { bytes: parts } };

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => writeAnswer(req, res, answer));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('writing an answer in parts', () => {
  it('sends every byte in order with the right Content-Length', async () => {
    const res = await rawRequest(url);
    const expected = Buffer.from(text.join(''));
    expect(Number(res.headers['content-length'])).toBe(expected.length);
    expect(res.body.equals(expected)).toBe(true);
  });

  it('HEAD gets the length and no body', async () => {
    const res = await rawRequest(url, { method: 'HEAD' });
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(text.join('')));
    expect(res.body.length).toBe(0);
  });
});
