/**
 * The hub of this process, wired from the configuration when the server starts:
 * the store (SQLite, or PostgreSQL with DATABASE_URL), the guarded HTTPS client,
 * the worker (which resumes pending work at once) and the hub's route.
 */
import { hubFormSchema } from '../../domain/websub/hub-form.ts';
import { hubTopics, hubUrl } from '../../domain/websub/topics.ts';
import type { Config } from '../config.ts';
import { clientOf } from '../http/client-address.ts';
import type { Route } from '../http/pipeline.ts';
import { systemResolver } from './address-guard.ts';
import { createHub } from './hub.ts';
import { hubRequestHandler } from './hub-route.ts';
import { distributeOnBuildSwitch } from './follow-builds.ts';
import { createHttpsClient } from './https-client.ts';
import { openHubStore } from './store/open-store.ts';
import { readServedTopic } from './served-topic.ts';
import { createWorker, systemClock } from './worker.ts';

/** Abuse limits (docs/websub.md); generous for a hub with three topics. */
const LIMITS = {
  maxSubscriptions: 10_000, maxSubscriptionsPerHost: 1_000,
  maxPendingVerifications: 1_000, maxPendingPerClient: 50, maxPendingPerHost: 100,
};
const RATE = { burst: 30, perSecond: 1, maxClients: 10_000 };
const CONCURRENCY = 32;
const SHUTDOWN_GRACE_MS = 5_000;

export interface HubServices {
  /** Answers POST /api/websub/hub: its own steps, then the hub's operation. */
  readonly handle: Route['handle'];
  /** Why the store cannot be used now, if it cannot. */
  problem(): Promise<string | undefined>;
  /** Stops the worker (deliveries in flight get a short grace) and closes the store. */
  stop(): Promise<void>;
}

export async function startHub(config: Config): Promise<HubServices> {
  const store = await openHubStore(config, RATE);
  const clock = systemClock;
  // In flight to one callback host at most, counted over every instance: the other slots stay free for everyone else
  // (docs/websub.md, "Slow callbacks").
  const perHostConcurrency = config.HUB_PER_HOST_CONCURRENCY;
  const log = (line: string) => console.log(`[hub] ${line}`);
  const worker = createWorker({
    store, clock, log,
    client: createHttpsClient({ allowPrivate: config.HUB_ALLOW_PRIVATE_CALLBACKS, maxSockets: Math.min(CONCURRENCY, perHostConcurrency) }),
    hubUrl: hubUrl(config.SITE_URL),
    retryDelaysMs: config.HUB_RETRY_DELAYS_MS,
    timeoutMs: config.HUB_TIMEOUT_MS,
    concurrency: CONCURRENCY,
    perHostConcurrency,
  });
  store.onWork(worker.wake);
  const topics = hubTopics(config.SITE_URL);
  const hub = createHub({
    topics, store, clock,
    allowPrivateCallbacks: config.HUB_ALLOW_PRIVATE_CALLBACKS,
    dnsTimeoutMs: config.HUB_TIMEOUT_MS,
    limits: LIMITS,
    resolve: systemResolver,
    readTopic: readServedTopic,
    wake: worker.wake,
  });
  const handle = hubRequestHandler({
    hub, clock,
    schema: hubFormSchema(topics.map((t) => t.url)),
    limiter: store,
    clientOf: clientOf(config.TRUST_PROXY),
    rateDescription: `${RATE.burst} at once, then ${RATE.perSecond} per second`,
  });
  worker.start();
  const stopFollowing = distributeOnBuildSwitch(hub, topics, log);
  return {
    handle,
    problem: () => store.problem(),
    async stop() {
      stopFollowing();
      await worker.stop(Math.min(SHUTDOWN_GRACE_MS, config.HUB_TIMEOUT_MS));
      await store.close();
    },
  };
}

/**
 * The hub, started once by `start` (after the server listens, so that a server that
 * cannot take its port starts no worker); a failure to start is kept, so every
 * request sees the same error.
 */
export function hubStarter(config: Config) {
  let started: Promise<HubServices> | undefined;
  return {
    start: (): Promise<HubServices> => (started ??= startHub(config)),
    /** The started hub, or the error it failed with; undefined before start. */
    started: (): Promise<HubServices> | undefined => started,
  };
}
export type HubStarter = ReturnType<typeof hubStarter>;
