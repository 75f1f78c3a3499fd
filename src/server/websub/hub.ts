/**
 * The hub's operations behind the form: record a subscribe or unsubscribe
 * intent for the worker to verify, and publish a topic by reading its bytes from
 * our own build (never from a URL someone sent). Refusals are `HubRejection`s
 * that carry their own status.
 */
import { grantedLeaseSeconds } from '../../domain/websub/lease.ts';
import type { Topic } from '../../domain/websub/topics.ts';
import type { TopicPath } from '../../domain/site-urls.ts';
import { RefusedAddressError, resolveCallbackHost, type Resolver } from './address-guard.ts';
import type { HubStore } from './store/hub-store.ts';
import type { Clock } from './worker.ts';

export interface HubLimits {
  maxSubscriptions: number;
  /** Per callback host, counted by name and by resolved address (localhost and 127.0.0.1 are one host). */
  maxSubscriptionsPerHost: number;
  maxPendingVerifications: number;
  /** Pending verifications one client address (IPv6: one /64) may have: a flood of hanging ones cannot lock out other clients. */
  maxPendingPerClient: number;
  /** Pending verifications on one callback host. */
  maxPendingPerHost: number;
}

export interface TopicContent {
  /** Hex digest of the bytes (the build's manifest has it): what tells whether they changed. */
  hash: string;
  /** The bytes, read when a subscription is there to receive them. */
  body: () => Buffer;
  contentType: string;
}

export interface HubOptions {
  topics: readonly Topic[];
  allowPrivateCallbacks: boolean;
  dnsTimeoutMs: number;
  limits: HubLimits;
  store: HubStore;
  clock: Clock;
  resolve: Resolver;
  readTopic: (path: TopicPath) => Promise<TopicContent>;
  /** Tells this process's worker there is new work. */
  wake: () => void;
}

export interface Intent {
  mode: 'subscribe' | 'unsubscribe';
  callback: URL;
  topic: string;
  leaseSeconds?: number;
  secret?: string;
}

export class HubRejection extends Error {
  readonly status: number;
  readonly error: string;
  readonly headers: Record<string, string>;
  /** The form field at fault, when there is one: the answer's issues name it, as every 400 of the API does. */
  readonly field: string | undefined;
  constructor(status: number, error: string, message: string, headers: Record<string, string> = {}, field?: string) {
    super(message);
    this.status = status;
    this.error = error;
    this.headers = headers;
    this.field = field;
  }
}

export function createHub(options: HubOptions) {
  const { topics, store, clock, limits } = options;

  /** The callback host's addresses, sorted; refused unless public. */
  async function checkCallback(callback: URL): Promise<string[]> {
    try {
      const addresses = await resolveCallbackHost(callback.hostname, options.allowPrivateCallbacks, options.resolve, options.dnsTimeoutMs);
      return [...new Set(addresses)].sort();
    } catch (error) {
      const reason = error instanceof RefusedAddressError ? error.message : `its host does not resolve (${(error as Error).message})`;
      throw new HubRejection(400, 'invalid_callback', `hub.callback is refused: ${reason}.`, {}, 'hub.callback');
    }
  }

  async function checkCapacity(intent: Intent, host: string, addresses: readonly string[], clientKey: string): Promise<void> {
    const retry = { 'Retry-After': '3600' };
    const wait = { 'Retry-After': '60' };
    // Per client and per callback host first: one client's flood of hanging verifications fills its own allowance, not the hub's.
    if ((await store.pendingVerificationCount({ clientKey })) >= limits.maxPendingPerClient) {
      throw new HubRejection(429, 'too_many_pending', `Your address already has ${limits.maxPendingPerClient} requests waiting for verification, the most one client may have; wait until they are verified (or time out).`, wait);
    }
    if ((await store.pendingVerificationCount({ host })) >= limits.maxPendingPerHost) {
      throw new HubRejection(429, 'too_many_pending', `Callbacks on ${host} already have ${limits.maxPendingPerHost} requests waiting for verification, the most one host may have; try again later.`, wait);
    }
    if ((await store.pendingVerificationCount()) >= limits.maxPendingVerifications) {
      throw new HubRejection(503, 'hub_busy', 'The hub has too many requests waiting for verification; try again later.', wait);
    }
    if (intent.mode !== 'subscribe' || (await store.isKnownPair(intent.topic, intent.callback.href))) return;
    if ((await store.subscriptionCount()) >= limits.maxSubscriptions) {
      throw new HubRejection(503, 'hub_full', `The hub holds its maximum of ${limits.maxSubscriptions} subscriptions; try again later.`, retry);
    }
    if ((await store.subscriptionCount({ host, addresses })) >= limits.maxSubscriptionsPerHost) {
      throw new HubRejection(
        429, 'too_many_subscriptions',
        `Callbacks on ${host} (${addresses.join(', ')}) already hold ${limits.maxSubscriptionsPerHost} subscriptions, the most one host or address may have; unsubscribe some first.`,
        retry,
      );
    }
  }

  return {
    /** Accepts an intent for verification; the worker sends the challenge. */
    async requestIntent(intent: Intent, clientKey: string): Promise<void> {
      const addresses = await checkCallback(intent.callback);
      const host = intent.callback.hostname;
      await checkCapacity(intent, host, addresses, clientKey);
      await store.requestVerification(
        {
          mode: intent.mode, topic: intent.topic, callback: intent.callback.href, callbackHost: host,
          callbackAddress: addresses[0] ?? host, clientKey, secret: intent.secret ?? null, leaseSeconds: grantedLeaseSeconds(intent.leaseSeconds),
        },
        clock.now(),
      );
      options.wake();
      await store.announceWork();
    },

    /** Distributes the topic's current bytes if they differ from what was last distributed. */
    async publish(topicUrl: string): Promise<{ changed: boolean; queued: number }> {
      const topic = topics.find((t) => t.url === topicUrl);
      if (!topic) throw new HubRejection(400, 'invalid_request', `hub.url is not a topic of this hub; the topics are ${topics.map((t) => t.url).join(', ')}.`, {}, 'hub.url');
      let content: TopicContent;
      try {
        content = await options.readTopic(topic.path);
      } catch (error) {
        throw new HubRejection(503, 'topic_unavailable', `The build has no readable ${topic.path} (${(error as Error).message}); publish again after the build.`);
      }
      const result = await store.publishContent(topic.url, content.hash, content.contentType, content.body, clock.now());
      if (result.queued > 0) {
        options.wake();
        await store.announceWork();
      }
      return result;
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
