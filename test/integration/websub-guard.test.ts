/**
 * A hub run as in production (no HUB_ALLOW_PRIVATE_CALLBACKS): callbacks on
 * loopback, private, link-local and other non-public addresses are refused before
 * anything is sent, and each client gets a burst of 30 requests, then 429.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hubPost, startHubServer, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

let server: RunningServer;
let subscriber: Subscriber;
let sent = 0;

beforeAll(async () => {
  const dir = scratchDir('guard');
  const certs = createTestCertificates(dir);
  subscriber = await startSubscriber(certs);
  server = await startHubServer(inject('smallBuild'), { hubDb: path.join(dir, 'hub.sqlite'), caFile: certs.caFile, allowPrivate: false });
});
afterAll(async () => {
  await server?.stop();
  await subscriber?.close();
});

const post = (fields: Record<string, string>) => {
  sent++;
  return hubPost(server.url, fields);
};

describe('SSRF guard', () => {
  it.each([
    ['localhost', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['[::127.0.0.1]', 'IPv4-compatible'],
    ['[64:ff9b::7f00:1]', 'NAT64'],
    ['[2002:7f00:1::]', '6to4'],
    ['[2001:db8::1]', 'documentation'],
  ])('refuses a callback on %s (%s) with 400 and sends it nothing', async (host, kind) => {
    const callback = subscriber.callback(`guarded-${kind}`, {}, host);
    const res = await post({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': TOPICS.atom });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_callback', message: expect.stringContaining(kind) });
    expect(res.json.issues).toEqual([{ path: 'hub.callback', code: 'invalid_callback', message: res.json.message }]);
    const unsubscribe = await post({ 'hub.mode': 'unsubscribe', 'hub.callback': callback, 'hub.topic': TOPICS.atom });
    expect(unsubscribe.status).toBe(400);
  });

  it('sent nothing to any refused callback', () => {
    for (const kind of ['loopback', 'private', 'link-local', 'unspecified', 'IPv4-compatible', 'NAT64', '6to4', 'documentation']) expect(subscriber.received(`guarded-${kind}`)).toHaveLength(0);
  });
});

describe('per-client rate limit', () => {
  it('lets a burst through, then answers 429 with Retry-After and the JSON error', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof hubPost>> | undefined;
    const before = sent;
    for (let i = 0; i < 60; i++) {
      const res = await post({ 'hub.mode': 'publish', 'hub.url': TOPICS.jsonFeed });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    // Everything within the first 30 requests of this client passed (the burst), counting earlier tests'.
    expect(statuses.slice(0, Math.max(0, 30 - before)).every((s) => s === 202)).toBe(true);
    expect(limited).toBeDefined();
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited?.json).toMatchObject({ error: 'rate_limited', message: expect.stringContaining('30 at once') });
  });
});
