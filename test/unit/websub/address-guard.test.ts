/** The connect-time guard: every address checked, the checked one used, IP literals checked without DNS. */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, resolveCallbackHost, type Resolver } from '../../../src/server/websub/address-guard.ts';
import { createHttpsClient } from '../../../src/server/websub/https-client.ts';

function lookupOnce(resolve: Resolver, options: { all?: boolean; family?: number }, allowPrivate = false) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((done) => {
    guardedLookup(allowPrivate, resolve)('callback.example', options as never, (error, address, family) => done({ error, address, family }));
  });
}

describe('guarded lookup (at every connect)', () => {
  it('hands out the checked public address', async () => {
    const resolve: Resolver = async () => [{ address: '93.184.216.34', family: 4 }];
    expect(await lookupOnce(resolve, {})).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect((await lookupOnce(resolve, { all: true })).address).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses when DNS now answers with a private address (rebinding after the subscribe check)', async () => {
    const answers: LookupAddress[][] = [[{ address: '93.184.216.34', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const resolve: Resolver = async () => answers.shift() ?? [];
    await resolveCallbackHost('callback.example', false, resolve, 1000);
    const { error } = await lookupOnce(resolve, { all: true });
    expect(error?.message).toMatch(/127\.0\.0\.1.*loopback/);
  });

  it('refuses when any one of several addresses is not public', async () => {
    const resolve: Resolver = async () => [{ address: '93.184.216.34', family: 4 }, { address: '::1', family: 6 }];
    expect((await lookupOnce(resolve, { all: true })).error?.message).toMatch(/::1/);
  });

  it('lets private addresses through only when allowed', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await lookupOnce(resolve, {}, true)).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });
});

describe('the HTTPS client', () => {
  it('refuses a private IP literal before connecting, and plain http', async () => {
    const client = createHttpsClient({ allowPrivate: false, resolve: async () => [] });
    const request = { method: 'GET' as const, timeoutMs: 1000, maxResponseBytes: 10 };
    await expect(client({ ...request, url: 'https://127.0.0.1:9/x' })).rejects.toThrow(/loopback/);
    await expect(client({ ...request, url: 'https://[::ffff:10.0.0.1]:9/x' })).rejects.toThrow(/private/);
    await expect(client({ ...request, url: 'http://93.184.216.34/x' })).rejects.toThrow(/https/);
  });
});
