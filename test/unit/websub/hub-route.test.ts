/** The hub's route over real HTTP, on a `:memory:` store with an injected resolver and clock; each client a 127.x address. */
import type { LookupAddress } from 'node:dns';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hubFormSchema } from '../../../src/domain/websub/hub-form.ts';
import { hubTopics } from '../../../src/domain/websub/topics.ts';
import { createHub, type HubLimits } from '../../../src/server/websub/hub.ts';
import { route } from '../../../src/server/http/route.ts';
import { hubRequestHandler } from '../../../src/server/websub/hub-route.ts';
import { clientOf } from '../../../src/server/http/client-address.ts';
import { NO_TRUSTED_PROXIES } from '../../../src/domain/client-address.ts';
import { serveRoute } from '../../support/route-server.ts';
import { openHubDatabase } from '../../../src/server/websub/store/sqlite-database.ts';
import { createSqliteStore } from '../../../src/server/websub/store/sqlite-store.ts';

const SITE = 'https://s.example';
const FEED = `${SITE}/feed.xml`;
const DNS: Record<string, LookupAddress[]> = {
  'sub.example': [{ address: '93.184.216.34', family: 4 }],
  'other.example': [{ address: '93.184.216.35', family: 4 }],
  // Another name for sub.example's address: counts as the same host.
  'alias.example': [{ address: '93.184.216.34', family: 4 }],
  'mixed.example': [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.8', family: 4 }],
  'inside.example': [{ address: 'fd00::5', family: 6 }],
};

function setup(limits: Partial<HubLimits> = {}, burst = 1000) {
  const store = createSqliteStore(openHubDatabase(':memory:'), { burst, perSecond: 1, maxClients: 100 });
  const clock = { now: () => 1_700_000_000_000 };
  let woken = 0;
  const topics = hubTopics(SITE);
  const bytes = Buffer.from('<feed/>');
  const hub = createHub({
    topics, store, clock,
    allowPrivateCallbacks: false,
    dnsTimeoutMs: 1000,
    limits: { maxSubscriptions: 100, maxSubscriptionsPerHost: 100, maxPendingVerifications: 100, maxPendingPerClient: 100, maxPendingPerHost: 100, ...limits },
    resolve: async (host) => {
      const found = DNS[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found;
    },
    readTopic: async () => ({ hash: createHash('sha256').update(bytes).digest('hex'), body: () => bytes, contentType: 'application/atom+xml' }),
    wake: () => woken++,
  });
  // As the server's table holds it (src/server/app/routes.ts).
  const handle = hubRequestHandler({
    hub, clock,
    schema: hubFormSchema(topics.map((t) => t.url)),
    limiter: store,
    clientOf: clientOf(NO_TRUSTED_PROXIES),
    rateDescription: `${burst} at once, then 1 per second`,
  });
  const server = serveRoute(route({ name: 'websub hub', path: '/api/websub/hub', methods: ['POST'], handle }));
  const post = async (fields: Record<string, string> | string, headers: Record<string, string> = {}, client = '203.0.113.9') => {
    const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
    // The client's last two numbers make its loopback address: each client connects from its own.
    const localAddress = `127.0.${client.split('.').slice(2).join('.')}`;
    const res = await (await server).send('POST', '/api/websub/hub', {
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      localAddress,
    });
    return { status: res.status, headers: new Headers(res.headers as Record<string, string>), json: JSON.parse(res.text) as Record<string, unknown> };
  };
  const subscribe = (callback: string, topic = FEED, client?: string) =>
    post({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': topic }, {}, client);
  return { store, post, subscribe, woken: () => woken };
}

describe('POST /api/websub/hub (the route)', () => {
  it('accepts a subscribe with 202 and queues its verification', async () => {
    const t = setup();
    const res = await t.subscribe('https://sub.example/cb');
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: 'accepted', mode: 'subscribe', topic: FEED });
    expect(await t.store.pendingVerificationCount()).toBe(1);
    expect(t.woken()).toBe(1);
  });

  it.each([
    ['https://127.0.0.1/cb', /loopback/],
    ['https://[::1]/cb', /loopback/],
    ['https://169.254.169.254/latest', /link-local/],
    ['https://10.0.0.1/cb', /private-network/],
    ['https://mixed.example/cb', /resolves to 10\.0\.0\.8/],
    ['https://inside.example/cb', /unique local/],
    ['https://nowhere.example/cb', /does not resolve/],
  ])('refuses the callback %s with 400', async (callback, reason) => {
    const t = setup();
    const res = await t.subscribe(callback);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_callback', message: expect.stringMatching(reason) });
    expect(await t.store.pendingVerificationCount()).toBe(0);
  });

  it('answers 400 with issues for a bad form', async () => {
    const res = await setup().post({ 'hub.mode': 'subscribe', 'hub.callback': 'http://sub.example/cb', 'hub.topic': `${SITE}/nope` });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
    expect((res.json.issues as { path: string }[]).map((i) => i.path)).toEqual(['hub.callback', 'hub.topic']);
  });

  it('answers 415 to another media type and 413 to a large body', async () => {
    const t = setup();
    expect((await t.post('{}', { 'Content-Type': 'application/json' })).status).toBe(415);
    const large = await t.post(`hub.mode=publish&pad=${'x'.repeat(20_000)}`);
    expect(large.status).toBe(413);
    expect(large.json.error).toBe('payload_too_large');
  });

  it('publishes from its own bytes, once per change', async () => {
    const t = setup();
    const first = await t.post({ 'hub.mode': 'publish', 'hub.url': FEED });
    const again = await t.post({ 'hub.mode': 'publish', 'hub.topic': FEED });
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(first.json.message).toMatch(/changed/);
    expect(again.json.message).toMatch(/unchanged/);
  });

  it('caps subscriptions per callback host and overall, but never blocks a renewal', async () => {
    const t = setup({ maxSubscriptionsPerHost: 2, maxSubscriptions: 3 });
    expect((await t.subscribe('https://sub.example/a')).status).toBe(202);
    expect((await t.subscribe('https://sub.example/b')).status).toBe(202);
    const third = await t.subscribe('https://sub.example/c');
    expect(third.status).toBe(429);
    expect(third.json.error).toBe('too_many_subscriptions');
    expect((await t.subscribe('https://sub.example/a')).status).toBe(202);
    expect((await t.subscribe('https://other.example/a')).status).toBe(202);
    const full = await t.subscribe('https://other.example/b');
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('3600');
  });

  it('counts the per-host cap by resolved address too: two names of one address share it', async () => {
    const t = setup({ maxSubscriptionsPerHost: 2 });
    expect((await t.subscribe('https://sub.example/a')).status).toBe(202);
    expect((await t.subscribe('https://alias.example/b')).status).toBe(202);
    const third = await t.subscribe('https://alias.example/c');
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ error: 'too_many_subscriptions', message: expect.stringContaining('93.184.216.34') });
    expect((await t.subscribe('https://other.example/a')).status).toBe(202);
  });

  it('limits pending verifications per client and per callback host, so one client cannot lock out others', async () => {
    const t = setup({ maxPendingPerClient: 2, maxPendingPerHost: 3, maxPendingVerifications: 100 });
    expect((await t.subscribe('https://sub.example/1', FEED, '198.51.100.1')).status).toBe(202);
    expect((await t.subscribe('https://sub.example/2', FEED, '198.51.100.1')).status).toBe(202);
    const flood = await t.subscribe('https://other.example/3', FEED, '198.51.100.1');
    expect(flood.status).toBe(429);
    expect(flood.json).toMatchObject({ error: 'too_many_pending', message: expect.stringMatching(/Your address already has 2/) });
    // Another client is not refused; on the crowded host, the host's own limit applies.
    expect((await t.subscribe('https://other.example/4', FEED, '198.51.100.2')).status).toBe(202);
    expect((await t.subscribe('https://sub.example/5', FEED, '198.51.100.3')).status).toBe(202);
    const crowded = await t.subscribe('https://sub.example/6', FEED, '198.51.100.4');
    expect(crowded.status).toBe(429);
    expect(crowded.json.message).toMatch(/Callbacks on sub\.example already have 3/);
    expect((await t.subscribe('https://other.example/7', FEED, '198.51.100.4')).status).toBe(202);
  });

  it('limits each client to its burst, then 429 with Retry-After', async () => {
    const t = setup({}, 3);
    for (let i = 0; i < 3; i++) expect((await t.post({ 'hub.mode': 'publish', 'hub.url': FEED })).status).toBe(202);
    const limited = await t.post({ 'hub.mode': 'publish', 'hub.url': FEED });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.json.error).toBe('rate_limited');
  });
});
