/**
 * The hub's HTTPS client against a local host that accepts TCP connections but
 * never starts TLS: the connect time limit ends the attempt long before the
 * response time limit, so such a host gives its delivery slot back early.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHttpsClient } from '../../../src/server/websub/https-client.ts';

const sockets = new Set<Socket>();
const silent = createServer((socket) => {
  sockets.add(socket);
  socket.on('error', () => {});
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

it('gives up on a connection that never completes its handshake after connectTimeoutMs, not timeoutMs', async () => {
  const client = createHttpsClient({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
  const attempt = client({ method: 'POST', url: `https://localhost:${port}/cb`, body: Buffer.from('x'), timeoutMs: 5000, connectTimeoutMs: 200, maxResponseBytes: 10 });
  await expect(attempt).rejects.toThrow('no connection within 200 ms');
});

it('without a connect limit, the same host holds the attempt until the whole time limit', async () => {
  const client = createHttpsClient({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
  const attempt = client({ method: 'POST', url: `https://localhost:${port}/cb`, body: Buffer.from('x'), timeoutMs: 400, maxResponseBytes: 10 });
  await expect(attempt).rejects.toThrow('no complete answer within 400 ms');
});
