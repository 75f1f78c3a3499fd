/**
 * The hub's state survives the process: killed (SIGKILL) with a delivery in
 * flight, a retry waiting and a verification unanswered, the next process on
 * the same HUB_DB delivers each pending notification exactly once per
 * subscriber and loses no subscription. SIGTERM lets a delivery in flight finish.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hubPost, readHubState, startHubServer, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber, type TestCertificates } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

let certs: TestCertificates;
let hubDb: string;
let server: RunningServer;
let subscriber: Subscriber;
let state: ReturnType<typeof readHubState>;
// Long enough that the kill lands while the first attempts are in flight or waiting.
const settings = () => ({ hubDb, caFile: certs.caFile, timeoutMs: 3000, retryDelaysMs: '2500,2500' });
const subscribe = (name: string, topic: string) =>
  hubPost(server.url, { 'hub.mode': 'subscribe', 'hub.callback': subscriber.callback(name), 'hub.topic': topic });
const callbacks = async () => (await state.store.subscriptions()).map((s) => new URL(s.callback).pathname.slice(1)).sort();

beforeAll(async () => {
  const dir = scratchDir('durability');
  certs = createTestCertificates(dir);
  hubDb = path.join(dir, 'hub.sqlite');
  subscriber = await startSubscriber(certs);
  server = await startHubServer(inject('smallBuild'), settings());
  state = readHubState(hubDb);
});
afterAll(async () => {
  state?.close();
  await server?.stop('SIGKILL');
  await subscriber?.close();
});

describe('a crash (SIGKILL) and a restart', () => {
  it('resumes every pending delivery and verification: each arrives once, no subscription is lost', async () => {
    subscriber.callback('held', { deliver: ['hang', 200] });
    subscriber.callback('retrying', { deliver: [500, 200] });
    subscriber.callback('done', { deliver: [200] });
    subscriber.callback('quiet');
    for (const name of ['held', 'retrying', 'done']) expect((await subscribe(name, TOPICS.atom)).status).toBe(202);
    expect((await subscribe('quiet', TOPICS.reviews)).status).toBe(202);
    await subscriber.waitFor('four subscriptions', async () => (await callbacks()).length === 4);
    subscriber.callback('unverified', { verify: 'hang' });
    await subscribe('unverified', TOPICS.atom);
    await subscriber.waitFor('the unanswered verification', () => subscriber.verifications('unverified').length === 1);

    expect((await hubPost(server.url, { 'hub.mode': 'publish', 'hub.url': TOPICS.atom })).status).toBe(202);
    await subscriber.waitFor('one delivery in flight, one failed, one done and recorded', async () =>
      subscriber.posts('held').length === 1 && subscriber.posts('retrying').length === 1 && subscriber.acknowledged('done').length === 1 &&
      (await state.store.pendingDeliveryCount()) === 2,
    );
    await server.stop('SIGKILL');

    subscriber.script('unverified', { verify: 'echo' });
    server = await startHubServer(inject('smallBuild'), settings());
    await subscriber.waitFor('the pending work to finish', async () => (await state.store.pendingDeliveryCount()) === 0 && (await state.store.pendingVerificationCount()) === 0);

    expect(subscriber.acknowledged('held')).toHaveLength(1);
    expect(subscriber.acknowledged('retrying')).toHaveLength(1);
    expect(subscriber.posts('done')).toHaveLength(1);
    expect(subscriber.posts('quiet')).toHaveLength(0);
    const bytes = subscriber.acknowledged('done')[0]?.body;
    for (const name of ['held', 'retrying']) expect(subscriber.acknowledged(name)[0]?.body.equals(bytes ?? Buffer.alloc(0)), name).toBe(true);
    expect(subscriber.verifications('unverified')).toHaveLength(2);
    expect(await callbacks()).toEqual(['done', 'held', 'quiet', 'retrying', 'unverified']);
  });
});

describe('a graceful stop (SIGTERM)', () => {
  it('lets a delivery in flight finish and records it, so it is not sent again', async () => {
    subscriber.callback('slow', { deliver: [{ status: 200, delayMs: 600 }] });
    await subscribe('slow', TOPICS.jsonFeed);
    await subscriber.waitFor('the subscription', async () => (await callbacks()).includes('slow'));
    await hubPost(server.url, { 'hub.mode': 'publish', 'hub.url': TOPICS.jsonFeed });
    await subscriber.waitFor('the delivery in flight', () => subscriber.posts('slow').length === 1);
    await server.stop('SIGTERM');
    expect(await state.store.pendingDeliveryCount()).toBe(0);
    server = await startHubServer(inject('smallBuild'), settings());
    expect(await state.store.pendingDeliveryCount()).toBe(0);
    expect(subscriber.posts('slow')).toHaveLength(1);
  });
});
