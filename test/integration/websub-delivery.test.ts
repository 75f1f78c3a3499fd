/**
 * Notifications from the real server to a real HTTPS subscriber: every rule of
 * SPEC section 6 (full content, the topic's type, Link, 2xx acknowledges, three
 * consecutive failures unsubscribe) plus the signature, the denial, 410 and
 * redirects. Two builds of the content give two versions of each topic.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isValidSignature } from '../../src/domain/websub/signature.ts';
import { TEST_SITE_URL } from '../support/build.ts';
import { addReview, buildContent, copyFixture } from '../support/content-variant.ts';
import { rawRequest } from '../support/http.ts';
import { hubPost, readHubState, startHubServer, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber, type TestCertificates } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

const HUB = `${TEST_SITE_URL}/api/websub/hub`;
let certs: TestCertificates;
let hubDb: string;
let server: RunningServer;
let subscriber: Subscriber;
let state: ReturnType<typeof readHubState>;
let secondBuild: string;

const served = async (topicPath: string) => (await rawRequest(`${server.url}${topicPath}`, { headers: { 'Accept-Encoding': 'identity' } })).body;
const publish = (topic: string) => hubPost(server.url, { 'hub.mode': 'publish', 'hub.url': topic });

beforeAll(async () => {
  const dir = scratchDir('delivery');
  certs = createTestCertificates(dir);
  hubDb = path.join(dir, 'hub.sqlite');
  const content = copyFixture('small', 'websub-delivery');
  addReview(content, 'f-new', 'Second version');
  secondBuild = await buildContent(content, 'websub-delivery');
  subscriber = await startSubscriber(certs);
  server = await startHubServer(inject('smallBuild'), { hubDb, caFile: certs.caFile });
  state = readHubState(hubDb);

  const target = subscriber.callback('redirect-target');
  const subscriptions: [string, string, Parameters<Subscriber['callback']>[1], string?][] = [
    ['signed', TOPICS.atom, {}, 'k1'],
    ['plain', TOPICS.atom, {}],
    ['json-feed', TOPICS.jsonFeed, {}],
    ['dataset', TOPICS.reviews, {}],
    ['flaky', TOPICS.atom, { deliver: [500, 200, 500, 500, 200] }],
    ['broken', TOPICS.atom, { deliver: [500] }],
    ['gone', TOPICS.atom, { deliver: [410] }],
    ['redirecting', TOPICS.atom, { deliver: [{ redirect: target }] }],
    ['hanging', TOPICS.atom, { deliver: ['hang'] }],
  ];
  for (const [name, topic, script, secret] of subscriptions) {
    const fields: Record<string, string> = { 'hub.mode': 'subscribe', 'hub.callback': subscriber.callback(name, script), 'hub.topic': topic };
    if (secret) fields['hub.secret'] = secret;
    expect((await hubPost(server.url, fields)).status).toBe(202);
  }
  await subscriber.waitFor('every subscription', async () => (await state.store.subscriptions()).length === subscriptions.length);
  for (const topic of Object.values(TOPICS)) expect((await publish(topic)).status).toBe(202);
});
afterAll(async () => {
  state?.close();
  await server?.stop();
  await subscriber?.close();
});

describe('a content update', () => {
  it('reaches every subscriber with the full topic bytes, the topic type and one Link with hub and self', async () => {
    await subscriber.waitFor('the notifications', () => ['signed', 'plain', 'json-feed', 'dataset'].every((n) => subscriber.acknowledged(n).length === 1));
    const cases = [
      ['plain', '/feed.xml', 'application/atom+xml', TOPICS.atom],
      ['json-feed', '/api/feed.json', 'application/json', TOPICS.jsonFeed],
      ['dataset', '/reviews.json', 'application/json', TOPICS.reviews],
    ] as const;
    for (const [name, topicPath, type, topic] of cases) {
      const [post] = subscriber.acknowledged(name);
      expect(post?.body.equals(await served(topicPath)), name).toBe(true);
      expect(post?.headers['content-type']).toBe(type);
      expect(post?.headers.link).toBe(`<${HUB}>; rel="hub", <${topic}>; rel="self"`);
      expect(post?.headers['x-hub-signature']).toBeUndefined();
    }
  });

  it('is signed with the subscriber secret', async () => {
    await subscriber.waitFor('the notification', () => subscriber.acknowledged('signed').length === 1);
    const [post] = subscriber.acknowledged('signed');
    expect(post?.headers['x-hub-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(isValidSignature(String(post?.headers['x-hub-signature']), 'k1', post?.body ?? Buffer.alloc(0))).toBe(true);
    expect(isValidSignature(String(post?.headers['x-hub-signature']), 'k2', post?.body ?? Buffer.alloc(0))).toBe(false);
  });

  it('is retried after a failure until acknowledged', async () => {
    await subscriber.waitFor('the retry', () => subscriber.acknowledged('flaky').length === 1);
    expect(subscriber.posts('flaky').map((p) => p.answered)).toEqual([500, 200]);
    expect(subscriber.posts('flaky')[1]?.body.equals(subscriber.posts('flaky')[0]?.body ?? Buffer.alloc(0))).toBe(true);
  });

  it.each(['broken', 'redirecting', 'hanging'])('ends the subscription of %s after 3 consecutive failures and sends hub.mode=denied', async (name) => {
    await subscriber.waitFor('the denial', () => subscriber.denials(name).length === 1);
    expect(subscriber.posts(name)).toHaveLength(3);
    const { query } = subscriber.denials(name)[0]!;
    expect(query.get('subscriber')).toBe(name);
    expect(query.get('hub.topic')).toBe(TOPICS.atom);
    expect(query.get('hub.reason')).toMatch(/3 consecutive delivery attempts failed/);
    expect((await state.store.subscriptions()).some((s) => s.callback.includes(`/${name}?`))).toBe(false);
  });

  it('never follows a redirect', async () => {
    await subscriber.waitFor('the denial', () => subscriber.denials('redirecting').length === 1);
    expect(subscriber.received('redirect-target')).toHaveLength(0);
  });

  it('ends the subscription at once on 410 Gone, without a denial', async () => {
    await subscriber.waitFor('the removal', async () => !(await state.store.subscriptions()).some((s) => s.callback.includes('/gone?')));
    expect(subscriber.posts('gone')).toHaveLength(1);
    expect(subscriber.denials('gone')).toHaveLength(0);
  });

  it('is not sent again when the bytes did not change', async () => {
    const res = await publish(TOPICS.atom);
    expect(res.status).toBe(202);
    expect(res.json.message).toMatch(/unchanged/);
    expect(await state.store.pendingDeliveryCount()).toBe(0);
  });
});

describe('the next version (after a rebuild and restart)', () => {
  it('goes to the remaining subscribers only; a success had reset the failure count', async () => {
    await subscriber.waitFor('round one to settle', () => ['broken', 'redirecting', 'hanging'].every((n) => subscriber.denials(n).length === 1));
    const before = Object.fromEntries(['broken', 'gone', 'redirecting', 'hanging'].map((n) => [n, subscriber.received(n).length]));
    await server.stop();
    server = await startHubServer(secondBuild, { hubDb, caFile: certs.caFile });
    expect((await publish(TOPICS.atom)).json.message).toMatch(/changed/);

    await subscriber.waitFor('the second version', () => subscriber.acknowledged('flaky').length === 2 && subscriber.acknowledged('signed').length === 2);
    const v2 = await served('/feed.xml');
    expect(v2.toString()).toContain('Second version');
    expect(subscriber.acknowledged('signed')[1]?.body.equals(v2)).toBe(true);
    expect(subscriber.acknowledged('flaky')[1]?.body.equals(v2)).toBe(true);
    // 500, 200 in round one; 500, 500, 200 now: without the reset the third failure would have ended it.
    expect(subscriber.posts('flaky').map((p) => p.answered)).toEqual([500, 200, 500, 500, 200]);
    for (const [name, count] of Object.entries(before)) expect(subscriber.received(name), name).toHaveLength(count);
    expect(subscriber.acknowledged('json-feed')).toHaveLength(1);
  });
});
