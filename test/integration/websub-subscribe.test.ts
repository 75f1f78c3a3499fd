/**
 * Subscribing and unsubscribing against the real server and a real HTTPS
 * subscriber: every row of the subscription state table (SPEC section 3) and
 * the hub's answers to bad requests.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { hubPost, readHubState, startHubServer, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

let server: RunningServer;
let subscriber: Subscriber;
let hubDb: string;
let state: ReturnType<typeof readHubState>;

beforeAll(async () => {
  const dir = scratchDir('subscribe');
  const certs = createTestCertificates(dir);
  hubDb = path.join(dir, 'hub.sqlite');
  subscriber = await startSubscriber(certs);
  server = await startHubServer(inject('smallBuild'), { hubDb, caFile: certs.caFile });
  state = readHubState(hubDb);
});
afterAll(async () => {
  state?.close();
  await server?.stop();
  await subscriber?.close();
});

const subscribe = (callback: string, topic: string = TOPICS.atom, extra: Record<string, string> = {}) =>
  hubPost(server.url, { 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': topic, ...extra });
const unsubscribe = (callback: string, topic: string = TOPICS.atom) =>
  hubPost(server.url, { 'hub.mode': 'unsubscribe', 'hub.callback': callback, 'hub.topic': topic });
const subscriptionOf = async (callback: string) => (await state.store.subscriptions()).find((s) => s.callback === callback);

describe('subscribe (none → pending verification → active)', () => {
  it('answers 202 at once, then verifies with a GET carrying mode, topic, challenge and lease, keeping the callback query', async () => {
    const callback = subscriber.callback('happy');
    const res = await subscribe(callback, TOPICS.atom, { 'hub.secret': 'sesame' });
    expect(res.status).toBe(202);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json).toMatchObject({ status: 'accepted', mode: 'subscribe', topic: TOPICS.atom });
    await subscriber.waitFor('the verification GET', () => subscriber.verifications('happy').length === 1);
    const { query } = subscriber.verifications('happy')[0]!;
    expect(query.get('subscriber')).toBe('happy');
    expect(query.get('hub.mode')).toBe('subscribe');
    expect(query.get('hub.topic')).toBe(TOPICS.atom);
    expect(query.get('hub.challenge')).toMatch(/^[\w-]{16,}$/);
    expect(query.get('hub.lease_seconds')).toBe('864000');
    await subscriber.waitFor('the subscription', async () => (await subscriptionOf(callback)) !== undefined);
    expect(await subscriptionOf(callback)).toMatchObject({ topic: TOPICS.atom, secret: 'sesame', leaseSeconds: 864000 });
  });

  it('sends a fresh challenge each time', async () => {
    const callback = subscriber.callback('fresh');
    await subscribe(callback);
    await subscribe(callback, TOPICS.reviews);
    await subscriber.waitFor('two verifications', () => subscriber.verifications('fresh').length === 2);
    const [a, b] = subscriber.verifications('fresh').map((r) => r.query.get('hub.challenge'));
    expect(a).not.toBe(b);
  });

  it.each([
    ['60', '3600'],
    ['7200', '7200'],
    ['99999999', '2592000'],
  ])('grants a requested lease of %s s as %s s', async (requested, granted) => {
    const name = `lease-${requested}`;
    const callback = subscriber.callback(name);
    expect((await subscribe(callback, TOPICS.jsonFeed, { 'hub.lease_seconds': requested })).status).toBe(202);
    await subscriber.waitFor('the verification', () => subscriber.verifications(name).length === 1);
    expect(subscriber.verifications(name)[0]?.query.get('hub.lease_seconds')).toBe(granted);
    await subscriber.waitFor('the subscription', async () => (await subscriptionOf(callback)) !== undefined);
    expect((await subscriptionOf(callback))?.leaseSeconds).toBe(Number(granted));
  });

  it.each([
    ['a non-2xx answer', 404 as const],
    ['a 2xx without the exact challenge', 'wrong' as const],
  ])('rejects the subscription on %s', async (_what, verify) => {
    const name = `rejected-${verify}`;
    const callback = subscriber.callback(name, { verify });
    expect((await subscribe(callback)).status).toBe(202);
    await subscriber.waitFor('the verification', () => subscriber.verifications(name).length === 1);
    await subscriber.waitFor('the verification to finish', async () => !(await state.store.isKnownPair(TOPICS.atom, callback)) || (await subscriptionOf(callback)) !== undefined);
    expect(await subscriptionOf(callback)).toBeUndefined();
  });

  it('keeps an earlier active subscription as it was when a renewal fails verification', async () => {
    const callback = subscriber.callback('renewal', { verify: 'echo' });
    await subscribe(callback, TOPICS.atom, { 'hub.secret': 'old' });
    await subscriber.waitFor('the subscription', async () => (await subscriptionOf(callback)) !== undefined);
    subscriber.script('renewal', { verify: 500 });
    await subscribe(callback, TOPICS.atom, { 'hub.secret': 'new' });
    await subscriber.waitFor('the second verification', () => subscriber.verifications('renewal').length === 2);
    await subscriber.waitFor('the verification to finish', async () => (await state.store.pendingVerificationCount()) === 0);
    expect(await subscriptionOf(callback)).toMatchObject({ secret: 'old' });
  });
});

describe('unsubscribe (active → none)', () => {
  it('re-runs the challenge handshake and removes the subscription once it succeeds', async () => {
    const callback = subscriber.callback('leaving');
    await subscribe(callback);
    await subscriber.waitFor('the subscription', async () => (await subscriptionOf(callback)) !== undefined);
    const res = await unsubscribe(callback);
    expect(res.status).toBe(202);
    expect(res.json.mode).toBe('unsubscribe');
    await subscriber.waitFor('the unsubscribe verification', () => subscriber.verifications('leaving').length === 2);
    const { query } = subscriber.verifications('leaving')[1]!;
    expect(query.get('hub.mode')).toBe('unsubscribe');
    expect(query.get('hub.topic')).toBe(TOPICS.atom);
    expect(query.get('hub.challenge')).toBeTruthy();
    await subscriber.waitFor('the removal', async () => (await subscriptionOf(callback)) === undefined);
  });

  it('keeps the subscription when the callback does not confirm', async () => {
    const callback = subscriber.callback('staying');
    await subscribe(callback);
    await subscriber.waitFor('the subscription', async () => (await subscriptionOf(callback)) !== undefined);
    subscriber.script('staying', { verify: 'wrong' });
    await unsubscribe(callback);
    await subscriber.waitFor('the unsubscribe verification', () => subscriber.verifications('staying').length === 2);
    await subscriber.waitFor('the verification to finish', async () => (await state.store.pendingVerificationCount()) === 0);
    expect(await subscriptionOf(callback)).toBeDefined();
  });
});

describe('refused requests (4xx, JSON, nothing sent to the callback)', () => {
  it('refuses a plain HTTP callback', async () => {
    const res = await subscribe('http://localhost:9/cb');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('hub.callback must use https') });
    expect(res.json.issues).toEqual([{ path: 'hub.callback', code: 'custom', message: expect.stringContaining('https') }]);
  });

  it('refuses an unknown topic, listing the three', async () => {
    const res = await subscribe(subscriber.callback('unknown-topic'), `${TOPICS.atom}x`);
    expect(res.status).toBe(400);
    for (const topic of Object.values(TOPICS)) expect(res.json.message).toContain(topic);
  });

  it('refuses a missing or unknown mode and a secret of 200 bytes', async () => {
    const callback = subscriber.callback('bad-form');
    const missing = await hubPost(server.url, { 'hub.callback': callback, 'hub.topic': TOPICS.atom });
    const unknown = await hubPost(server.url, { 'hub.mode': 'renew', 'hub.callback': callback, 'hub.topic': TOPICS.atom });
    const secret = await subscribe(callback, TOPICS.atom, { 'hub.secret': 's'.repeat(200) });
    expect([missing.status, unknown.status, secret.status]).toEqual([400, 400, 400]);
    expect(missing.json.message).toMatch(/hub\.mode is required/);
    expect(unknown.json.message).toMatch(/hub\.mode must be subscribe, unsubscribe or publish/);
    expect(secret.json.message).toMatch(/hub\.secret must be shorter than 200 bytes/);
    expect(subscriber.received('bad-form')).toHaveLength(0);
  });

  it('answers 415 to JSON, 413 to an oversized form and 405 with Allow to GET', async () => {
    const json = await rawRequest(`${server.url}/api/websub/hub`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const large = await rawRequest(`${server.url}/api/websub/hub`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `hub.mode=publish&pad=${'x'.repeat(40_000)}`,
    });
    const get = await rawRequest(`${server.url}/api/websub/hub`);
    expect([json.status, large.status, get.status]).toEqual([415, 413, 405]);
    expect(get.headers.allow).toBe('POST');
    for (const res of [json, large, get]) expect(JSON.parse(res.text)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });

  it('answers 415 to a compressed form, naming the coding, and sends nothing to the callback', async () => {
    const callback = subscriber.callback('gzip-form');
    const form = new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': TOPICS.atom }).toString();
    for (const [coding, body] of [['gzip', gzipSync(form)], ['br', form]] as const) {
      const res = await rawRequest(`${server.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': coding },
        body,
      });
      expect(res.status, coding).toBe(415);
      expect(res.headers['accept-encoding']).toBe('identity');
      expect(JSON.parse(res.text)).toEqual({ error: 'unsupported_media_type', message: expect.stringContaining(`Content-Encoding: ${coding}`) });
    }
    const identity = await rawRequest(`${server.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'identity' },
      body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': TOPICS.atom }).toString(),
    });
    expect(identity.status).toBe(202);
    expect(subscriber.received('gzip-form')).toHaveLength(0);
  });

  it('/api/health says ok', async () => {
    const res = await rawRequest(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ status: 'ok', build: { id: expect.any(String), restartNeeded: false } });
  });
});
