/**
 * Slow callbacks cannot starve healthy ones (the hub at its default 10 s
 * timeout): 1,000 subscriptions whose callbacks never answer, all on one host,
 * and healthy subscribers on another host get each notification within 5 s of
 * the publish. A flood of verifications that hang does not keep a subscriber
 * of another client waiting.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openHubDatabase } from '../../src/server/websub/store/sqlite-database.ts';
import { createSqliteStore } from '../../src/server/websub/store/sqlite-store.ts';
import { hubPost, startHubServer, TEST_RATE, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

const HANGING = 1000;
const HEALTHY = ['healthy-1', 'healthy-2', 'healthy-3', 'healthy-4', 'healthy-5'];
let server: RunningServer;
let subscriber: Subscriber;
let caFile: string;
let dir: string;

beforeAll(async () => {
  dir = scratchDir('starvation');
  const certs = createTestCertificates(dir);
  caFile = certs.caFile;
  subscriber = await startSubscriber(certs);
  const hubDb = path.join(dir, 'hub.sqlite');
  // Seeded straight into the store: the rate limit would (rightly) refuse 1,000 subscribe requests from one client.
  const db = openHubDatabase(hubDb);
  const store = createSqliteStore(db, TEST_RATE);
  const now = Date.now();
  const seed = (callback: string, topic: string) =>
    store.activateSubscription({ topic, callback, callbackHost: new URL(callback).hostname, callbackAddress: '127.0.0.1', secret: null, leaseSeconds: 86_400 }, now);
  for (let i = 0; i < HANGING; i++) {
    const callback = subscriber.callback(`hanging-${i}`, { deliver: ['hang'] }, 'localhost');
    await seed(callback, TOPICS.reviews);
    await seed(callback, TOPICS.jsonFeed);
  }
  for (const name of HEALTHY) {
    const callback = subscriber.callback(name, {}, '127.0.0.1');
    await seed(callback, TOPICS.reviews);
    await seed(callback, TOPICS.jsonFeed);
  }
  db.close();
  server = await startHubServer(inject('smallBuild'), { hubDb, caFile: certs.caFile, timeoutMs: 10_000 });
});
afterAll(async () => {
  await server?.stop('SIGKILL');
  await subscriber?.close();
});

describe('1,000 never-answering callbacks on one host', () => {
  it('delay no healthy subscriber on another host by more than 5 s, notification after notification', async () => {
    for (const topic of [TOPICS.reviews, TOPICS.jsonFeed]) {
      const before = new Map(HEALTHY.map((name) => [name, subscriber.acknowledged(name).length]));
      expect((await hubPost(server.url, { 'hub.mode': 'publish', 'hub.url': topic })).status).toBe(202);
      await subscriber.waitFor(`every healthy delivery of ${topic} within 5 s`, () =>
        HEALTHY.every((name) => subscriber.acknowledged(name).length > (before.get(name) ?? 0)), 5000);
    }
    // The hanging host holds no more than its share of the slots.
    const hangingInFlight = Array.from({ length: HANGING }, (_, i) => subscriber.posts(`hanging-${i}`).length).reduce((a, b) => a + b, 0);
    expect(hangingInFlight).toBeLessThanOrEqual(8);
  });
});

describe('a flood of hanging verifications from one client', () => {
  it('neither refuses nor delays a subscriber of another client', async () => {
    // A hub of its own: the first one's 2,000 subscriptions on 127.0.0.1 fill the per-address cap.
    const fresh = await startHubServer(inject('smallBuild'), { hubDb: path.join(dir, 'flood.sqlite'), caFile, timeoutMs: 10_000 });
    try {
      await floodAndSubscribe(fresh);
    } finally {
      await fresh.stop('SIGKILL');
    }
  });
});

async function floodAndSubscribe(server: RunningServer): Promise<void> {
  {
    const flood = [];
    // 40 hanging verifications (two flooding addresses, within their bursts): more than the hub's 32 slots.
    for (let i = 0; i < 40; i++) {
      const callback = subscriber.callback(`flood-${i}`, { verify: 'hang' }, 'localhost');
      const fields = { 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': TOPICS.atom };
      flood.push((await hubPost(server.url, fields, i % 2 ? '127.0.0.3' : '127.0.0.4')).status);
    }
    expect(flood.every((status) => status === 202)).toBe(true);
    const callback = subscriber.callback('other-client', {}, '127.0.0.1');
    const res = await hubPost(server.url, { 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': TOPICS.atom }, '127.0.0.2');
    expect(res.status).toBe(202);
    await subscriber.waitFor('the other client verified within 5 s', () => subscriber.verifications('other-client').length === 1, 5000);
  }
}
