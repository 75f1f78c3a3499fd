/**
 * The HubStore contract: the store and the worker together, with an injected
 * clock and a scripted HTTP client, run against each adapter (SQLite in
 * `:memory:`, and PostgreSQL on a throwaway cluster with a fresh database per
 * test). Both adapters must pass every case here.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidSignature } from '../../src/domain/websub/signature.ts';
import type { HttpClient, OutboundRequest, OutboundResponse } from '../../src/server/websub/https-client.ts';
import type { HubStore } from '../../src/server/websub/store/hub-store.ts';
import { openHubDatabase } from '../../src/server/websub/store/sqlite-database.ts';
import { createSqliteStore } from '../../src/server/websub/store/sqlite-store.ts';
import { createWorker } from '../../src/server/websub/worker.ts';
import { openPostgresStore } from '../../src/server/websub/store/postgres-store.ts';
import { TEST_RATE } from '../support/hub.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';

const HUB = 'https://s.example/api/websub/hub';
const FEED = 'https://s.example/feed.xml';
const CB = 'https://sub.example/cb?id=7';
const HOUR = 3_600_000;

type Answer = (req: OutboundRequest) => OutboundResponse | Error | Promise<OutboundResponse | Error>;

/** Echoes the challenge of a verification, accepts everything else with 204. */
const cooperative: Answer = (req) => {
  const challenge = new URL(req.url).searchParams.get('hub.challenge');
  return { status: challenge && req.method === 'GET' ? 200 : 204, body: Buffer.from(challenge ?? '') };
};

interface Adapter {
  name: string;
  open(): Promise<HubStore>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

let cluster: TestPostgres | undefined;
let databases = 0;

const adapters: Adapter[] = [
  { name: 'SQLite', open: async () => createSqliteStore(openHubDatabase(':memory:'), TEST_RATE) },
  {
    name: 'PostgreSQL',
    start: async () => {
      cluster = await startPostgres();
    },
    open: async () => openPostgresStore(await (cluster as TestPostgres).createSchema(`contract_${++databases}`), TEST_RATE),
    stop: async () => cluster?.stop(),
  },
];

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe.each(adapters)('HubStore on $name', (adapter) => {
  const opened: HubStore[] = [];
  beforeAll(async () => adapter.start?.());
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await adapter.stop?.();
  });

  async function setup(timeoutMs = 1000, perHostConcurrency = 4) {
    const store = await adapter.open();
    opened.push(store);
    const clock = { at: 1_700_000_000_000, now: () => clock.at };
    const calls: OutboundRequest[] = [];
    let answer: Answer = cooperative;
    const client: HttpClient = async (req) => {
      calls.push(req);
      const result = await answer(req);
      if (result instanceof Error) throw result;
      return result;
    };
    const newWorker = () =>
      createWorker({ store, client, clock, hubUrl: HUB, retryDelaysMs: [100, 200], timeoutMs, concurrency: 4, perHostConcurrency, log: () => {} });
    const request = (mode: 'subscribe' | 'unsubscribe', callback = CB, secret: string | null = null, host = 'sub.example') =>
      store.requestVerification(
        { mode, topic: FEED, callback, callbackHost: host, callbackAddress: '93.184.216.34', clientKey: '203.0.113.9', secret, leaseSeconds: 3600 },
        clock.at,
      );
    const subscribe = async (secret: string | null = null, callback = CB) => {
      await request('subscribe', callback, secret);
      await worker.runDue();
    };
    const publish = (text: string) =>
      store.publishContent(FEED, createHash('sha256').update(text).digest('hex'), 'application/atom+xml', () => Buffer.from(text), clock.at);
    const posts = () => calls.filter((c) => c.method === 'POST');
    const worker = newWorker();
    return { store, clock, calls, posts, worker, newWorker, request, subscribe, publish, answer: (a: Answer) => (answer = a) };
  }

  describe('verification', () => {
    it('activates a subscription whose callback echoes the challenge, with the granted lease', async () => {
      const t = await setup();
      await t.subscribe('k');
      const get = new URL(t.calls[0]?.url ?? '');
      expect(get.searchParams.get('id')).toBe('7');
      expect(get.searchParams.get('hub.mode')).toBe('subscribe');
      expect(get.searchParams.get('hub.lease_seconds')).toBe('3600');
      expect(await t.store.subscriptions()).toMatchObject([{ topic: FEED, callback: CB, secret: 'k', leaseSeconds: 3600, expiresAt: t.clock.at + HOUR }]);
    });

    it.each<[string, Answer]>([
      ['a non-2xx answer', () => ({ status: 404, body: Buffer.from('') })],
      ['a 2xx with another body', () => ({ status: 200, body: Buffer.from('hello') })],
      ['a network error', () => new Error('ECONNREFUSED')],
    ])('rejects on %s and leaves an earlier subscription as it was', async (_name, failing) => {
      const t = await setup();
      await t.subscribe('first');
      t.answer(failing);
      await t.subscribe('second');
      expect(await t.store.subscriptions()).toMatchObject([{ secret: 'first' }]);
      expect(await t.store.pendingVerificationCount()).toBe(0);
    });

    it('renews on a new subscribe: the lease restarts', async () => {
      const t = await setup();
      await t.subscribe();
      t.clock.at += HOUR / 2;
      await t.subscribe();
      expect((await t.store.subscriptions())[0]?.expiresAt).toBe(t.clock.at + HOUR);
    });

    it('ends a subscription only when the unsubscribe is confirmed', async () => {
      const t = await setup();
      await t.subscribe();
      const unsubscribe = () =>
        t.request('unsubscribe');
      t.answer(() => ({ status: 500, body: Buffer.from('') }));
      await unsubscribe();
      await t.worker.runDue();
      expect(await t.store.subscriptions()).toHaveLength(1);
      t.answer(cooperative);
      await unsubscribe();
      await t.worker.runDue();
      expect(new URL(t.calls.at(-1)?.url ?? '').searchParams.get('hub.mode')).toBe('unsubscribe');
      expect(await t.store.subscriptions()).toHaveLength(0);
    });

    it('lets a newer request for the same pair win over a verification in flight', async () => {
      const t = await setup();
      let release: () => void = () => {};
      t.answer(async (req) => {
        if (new URL(req.url).searchParams.get('hub.mode') === 'subscribe') await new Promise<void>((r) => (release = r));
        return cooperative(req);
      });
      await t.request('subscribe');
      const running = t.worker.runDue();
      await until('the verification in flight', () => t.calls.length === 1);
      await t.request('unsubscribe');
      release();
      await running;
      expect(t.calls.map((c) => new URL(c.url).searchParams.get('hub.mode'))).toEqual(['subscribe', 'unsubscribe']);
      expect(await t.store.subscriptions()).toHaveLength(0);
    });
    it('runDue also runs what a job made due while the claims of its round were still being made', async () => {
      const t = await setup();
      // The verification ends (superseded by the unsubscribe) before the round's last claim returns,
      // as happens when the store is slow: the round must still be followed by another one.
      let verificationEnded: () => void = () => {};
      const ended = new Promise<void>((r) => (verificationEnded = r));
      const store = t.store;
      const claimDenials = store.claimDenials.bind(store);
      let rounds = 0;
      store.claimDenials = async (now, limits) => {
        if (++rounds === 1) await ended;
        return claimDenials(now, limits);
      };
      t.answer(async (req) => {
        if (new URL(req.url).searchParams.get('hub.mode') === 'subscribe') {
          await t.request('unsubscribe');
          setTimeout(verificationEnded, 50);
        }
        return cooperative(req);
      });
      await t.request('subscribe');
      await t.worker.runDue();
      expect(t.calls.map((c) => new URL(c.url).searchParams.get('hub.mode'))).toEqual(['subscribe', 'unsubscribe']);
      expect(await t.store.pendingVerificationCount()).toBe(0);
    });
  });

  describe('delivery', () => {
    it('posts the exact bytes with type, Link and signature, once per content version', async () => {
      const t = await setup();
      await t.subscribe('secret');
      expect(await t.publish('<feed>1</feed>')).toEqual({ changed: true, queued: 1 });
      await t.worker.runDue();
      expect(await t.publish('<feed>1</feed>')).toEqual({ changed: false, queued: 0 });
      await t.worker.runDue();
      const [post] = t.posts();
      expect(t.posts()).toHaveLength(1);
      expect(post?.url).toBe(CB);
      expect(Buffer.from(post?.body ?? []).toString()).toBe('<feed>1</feed>');
      expect(post?.headers).toMatchObject({ 'Content-Type': 'application/atom+xml', Link: `<${HUB}>; rel="hub", <${FEED}>; rel="self"` });
      expect(isValidSignature(post?.headers?.['X-Hub-Signature'], 'secret', post?.body ?? new Uint8Array())).toBe(true);
      expect(await t.store.pendingDeliveryCount()).toBe(0);
    });

    it('reads no bytes of a topic nobody follows, yet tells its changes, and delivers whole bytes once followed', async () => {
      const t = await setup();
      let reads = 0;
      const publishCounted = (text: string) =>
        t.store.publishContent(FEED, createHash('sha256').update(text).digest('hex'), 'application/atom+xml', () => (reads++, Buffer.from(text)), t.clock.at);
      expect(await publishCounted('<feed>A</feed>')).toEqual({ changed: true, queued: 0 });
      expect(await publishCounted('<feed>A</feed>')).toEqual({ changed: false, queued: 0 });
      expect(reads).toBe(0);
      await t.subscribe();
      expect(await publishCounted('<feed>B</feed>')).toEqual({ changed: true, queued: 1 });
      await t.worker.runDue();
      // Back to A (a rollback): its row kept no bytes, and now someone needs them.
      expect(await publishCounted('<feed>A</feed>')).toEqual({ changed: true, queued: 1 });
      await t.worker.runDue();
      expect(reads).toBe(2);
      expect(t.posts().map((post) => Buffer.from(post.body ?? []).toString())).toEqual(['<feed>B</feed>', '<feed>A</feed>']);
    });

    it('retries after the configured delays; a success resets the count', async () => {
      const t = await setup();
      await t.subscribe();
      t.answer(() => ({ status: 503, body: Buffer.from('') }));
      await t.publish('v1');
      await t.worker.runDue();
      expect(t.posts()).toHaveLength(1);
      t.clock.at += 99;
      await t.worker.runDue();
      expect(t.posts()).toHaveLength(1);
      t.clock.at += 1;
      await t.worker.runDue();
      expect(t.posts()).toHaveLength(2);
      expect((await t.store.subscriptions())[0]?.failures).toBe(2);
      t.answer(cooperative);
      t.clock.at += 200;
      await t.worker.runDue();
      expect(t.posts()).toHaveLength(3);
      expect((await t.store.subscriptions())[0]?.failures).toBe(0);
    });

    it.each<[string, Answer]>([
      ['500', () => ({ status: 500, body: Buffer.from('') })],
      ['a redirect', () => ({ status: 302, body: Buffer.from('') })],
      ['a timeout', () => new Error('no complete answer within 1000 ms')],
    ])('removes the subscription on the third consecutive failure (%s) and tells the callback', async (_name, failing) => {
      const t = await setup();
      await t.subscribe();
      t.answer((req) => (req.method === 'POST' ? failing(req) : { status: 200, body: Buffer.from('') }));
      await t.publish('v1');
      for (const wait of [0, 100, 200]) {
        t.clock.at += wait;
        await t.worker.runDue();
      }
      expect(t.posts()).toHaveLength(3);
      expect(await t.store.subscriptions()).toHaveLength(0);
      const denied = new URL(t.calls.at(-1)?.url ?? '');
      expect(denied.searchParams.get('hub.mode')).toBe('denied');
      expect(denied.searchParams.get('hub.topic')).toBe(FEED);
      expect(denied.searchParams.get('hub.reason')).toMatch(/3 consecutive delivery attempts failed/);
      await t.publish('v2');
      await t.worker.runDue();
      expect(t.posts()).toHaveLength(3);
    });

    it('ends a subscription at once on 410 Gone, without a denial', async () => {
      const t = await setup();
      await t.subscribe();
      t.answer(() => ({ status: 410, body: Buffer.from('') }));
      await t.publish('v1');
      await t.worker.runDue();
      expect(await t.store.subscriptions()).toHaveLength(0);
      expect(t.calls.filter((c) => c.url.includes('hub.mode=denied'))).toHaveLength(0);
    });

    it('replaces undelivered older content with newer content', async () => {
      const t = await setup();
      await t.subscribe();
      t.answer(() => ({ status: 500, body: Buffer.from('') }));
      await t.publish('v1');
      await t.worker.runDue();
      await t.publish('v2');
      t.answer(cooperative);
      t.clock.at += 100;
      await t.worker.runDue();
      expect(t.posts().map((p) => Buffer.from(p.body ?? []).toString())).toEqual(['v1', 'v2']);
      expect(await t.store.pendingDeliveryCount()).toBe(0);
    });

    it('sends newer content after a delivery of older content that was in flight', async () => {
      const t = await setup();
      await t.subscribe();
      let release: () => void = () => {};
      t.answer(async (req) => {
        if (Buffer.from(req.body ?? []).toString() === 'v1') await new Promise<void>((r) => (release = r));
        return { status: 200, body: Buffer.from('') };
      });
      await t.publish('v1');
      const running = t.worker.runDue();
      await until('the delivery in flight', () => t.posts().length === 1);
      await t.publish('v2');
      release();
      await running;
      expect(t.posts().map((p) => Buffer.from(p.body ?? []).toString())).toEqual(['v1', 'v2']);
    });

    it('gives an expired subscription nothing', async () => {
      const t = await setup();
      await t.subscribe();
      t.answer(() => ({ status: 500, body: Buffer.from('') }));
      await t.publish('v1');
      await t.worker.runDue();
      t.clock.at += HOUR;
      t.answer(cooperative);
      await t.worker.runDue();
      expect((await t.publish('v2')).queued).toBe(0);
      expect(t.posts()).toHaveLength(1);
      expect(await t.store.subscriptions()).toHaveLength(0);
    });
  });

  describe('slow hosts', () => {
    it('claims at most perHost items per callback host, so a host that never answers leaves slots for the others', async () => {
      const t = await setup(1000, 2);
      const slow = Array.from({ length: 5 }, (_, i) => `https://slow.example/cb${i}`);
      for (const callback of [...slow, 'https://fast.example/cb']) {
        await t.store.activateSubscription(
          { topic: FEED, callback, callbackHost: new URL(callback).hostname, callbackAddress: '93.184.216.34', secret: null, leaseSeconds: 3600 },
          t.clock.at,
        );
      }
      t.answer((req) => (req.url.includes('slow.example') ? new Promise(() => {}) : { status: 204, body: Buffer.from('') }));
      await t.publish('v1');
      void t.worker.runDue();
      const slowPosts = () => t.posts().filter((p) => p.url.includes('slow.example'));
      await until('the fast delivery and two slow ones', () => t.posts().some((p) => p.url.includes('fast.example')) && slowPosts().length >= 2);
      // Another worker on the same store (another instance) sees the slow host's two claims as held.
      const other = t.newWorker();
      await other.runDue();
      expect(slowPosts()).toHaveLength(2);
      expect(await t.store.pendingDeliveryCount()).toBe(5);
    });
  });

  describe('crash recovery', () => {
    it('retries a delivery whose outcome was never recorded, once its claim lapses, and only once', async () => {
      const t = await setup();
      await t.subscribe();
      t.answer(() => new Promise(() => {}));
      await t.publish('v1');
      // The first worker claims and then "dies" with the request hanging.
      void t.worker.runDue();
      await until('the delivery in flight', () => t.posts().length === 1);
      expect(t.posts()).toHaveLength(1);

      t.answer(cooperative);
      const second = t.newWorker();
      await second.runDue();
      expect(t.posts()).toHaveLength(1);
      t.clock.at += 1000 + 2000;
      await second.runDue();
      expect(t.posts()).toHaveLength(2);

      const third = t.newWorker();
      t.clock.at += 60_000;
      await third.runDue();
      expect(t.posts()).toHaveLength(2);
      expect(await t.store.subscriptions()).toHaveLength(1);
    });

    it('a stopped worker leaves an interrupted delivery for the next one, recording no failure', async () => {
      const t = await setup();
      await t.subscribe();
      t.answer((req) => new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(new Error('aborted')))));
      await t.publish('v1');
      const first = t.newWorker();
      void first.runDue();
      await until('the delivery in flight', () => t.posts().length === 1);
      await first.stop(10);
      expect((await t.store.subscriptions())[0]?.failures).toBe(0);
      t.answer(cooperative);
      t.clock.at += 3000;
      await t.newWorker().runDue();
      expect(t.posts()).toHaveLength(2);
      expect(await t.store.pendingDeliveryCount()).toBe(0);
    });
  });
});
