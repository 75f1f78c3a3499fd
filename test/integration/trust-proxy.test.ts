/**
 * TRUST_PROXY on the real server: through a trusted proxy each client named by the
 * forwarding headers gets its own allowance from the hub; the same headers from an
 * address that is not trusted change nothing.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TOPICS } from '../support/hub.ts';
import { rawRequest } from '../support/http.ts';
import { scratchDir } from '../support/https-subscriber.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;

beforeAll(async () => {
  const dir = scratchDir('trust-proxy');
  // 127.0.0.1 stands for the proxy; other loopback addresses are clients that connect directly.
  server = await startServer(inject('smallBuild'), { HUB_DB: path.join(dir, 'hub.sqlite'), TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await server?.stop();
});

/** One publish ping (allowed by the hub for any client, so only the rate limit answers 429). */
async function ping(localAddress: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await rawRequest(`${server.url}/api/websub/hub`, {
    method: 'POST',
    localAddress,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': TOPICS.jsonFeed }).toString(),
  });
  return res.status;
}

/** Sends the burst of 30 and one more, and returns the statuses. */
async function burst(send: () => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) statuses.push(await send());
  return statuses;
}

const expectBurstThenLimit = (statuses: number[]) => expect(statuses).toEqual([...Array<number>(30).fill(202), 429]);

describe('TRUST_PROXY=127.0.0.1', () => {
  it('gives two clients behind the proxy separate allowances (X-Forwarded-For)', async () => {
    expectBurstThenLimit(await burst(() => ping('127.0.0.1', { 'X-Forwarded-For': '203.0.113.10' })));
    // The first client is spent; the second, through the same proxy, is not; nor is the proxy itself.
    expect(await ping('127.0.0.1', { 'X-Forwarded-For': '203.0.113.10' })).toBe(429);
    expectBurstThenLimit(await burst(() => ping('127.0.0.1', { 'X-Forwarded-For': '1.2.3.4, 203.0.113.11' })));
    expect(await ping('127.0.0.1')).toBe(202);
  });

  it('reads Forwarded (RFC 7239) with IPv6 and ports the same way', async () => {
    expectBurstThenLimit(await burst(() => ping('127.0.0.1', { Forwarded: 'for="[2001:db8:1::7]:4711";proto=https' })));
    // The same /64 is the same client; another is not.
    expect(await ping('127.0.0.1', { Forwarded: 'for="[2001:db8:1::8]"' })).toBe(429);
    expect(await ping('127.0.0.1', { Forwarded: 'for="[2001:db8:2::7]"' })).toBe(202);
  });

  it('ignores the headers from an address it does not trust', async () => {
    let n = 0;
    // A new forged address every time: were the header believed, no request would be limited.
    const statuses = await burst(() => ping('127.0.0.5', { 'X-Forwarded-For': `198.51.100.${++n}`, Forwarded: `for=198.51.100.${n}` }));
    expectBurstThenLimit(statuses);
  });
});
