/**
 * The hub of this process, wired from the configuration on first use: the store
 * (SQLite, or PostgreSQL with DATABASE_URL), the guarded HTTPS client, the
 * worker (started here, so it runs from the server's warm-up request on) and the
 * request handler. One per process.
 */
import { hubFormSchema } from '../../domain/websub/hub-form.ts';
import { hubTopics, hubUrl } from '../../domain/websub/topics.ts';
import { getConfig } from '../config.ts';
import { onShutdown } from '../runtime/shutdown.ts';
import { systemResolver } from './address-guard.ts';
import { createHub } from './hub.ts';
import { createHubEndpoint } from './hub-endpoint.ts';
import { distributeOnBuildSwitch } from './follow-builds.ts';
import { createHttpsClient } from './https-client.ts';
import { openHubStore } from './store/open-store.ts';
import { readBuiltTopic } from './topic-source.ts';
import { createWorker, systemClock } from './worker.ts';

/** Abuse limits (DESIGN section 8); generous for a hub with three topics. */
const LIMITS = {
  maxSubscriptions: 10_000, maxSubscriptionsPerHost: 1_000,
  maxPendingVerifications: 1_000, maxPendingPerClient: 50, maxPendingPerHost: 100,
};
const RATE = { burst: 30, perSecond: 1, maxClients: 10_000 };
const CONCURRENCY = 32;
const SHUTDOWN_GRACE_MS = 5_000;

async function createHubServices() {
  const config = getConfig();
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
    readTopic: readBuiltTopic,
    wake: worker.wake,
  });
  const handle = createHubEndpoint({
    hub, clock,
    schema: hubFormSchema(topics.map((t) => t.url)),
    limiter: store,
    rateDescription: `${RATE.burst} at once, then ${RATE.perSecond} per second`,
  });
  worker.start();
  const stopFollowing = distributeOnBuildSwitch(hub, topics, log);
  onShutdown(async () => {
    stopFollowing();
    await worker.stop(Math.min(SHUTDOWN_GRACE_MS, config.HUB_TIMEOUT_MS));
    await store.close();
  });
  return { handle, hub, problem: () => store.problem() };
}

let services: ReturnType<typeof createHubServices> | undefined;

/** The hub's services; a failure to open the store is kept, so every caller sees the same error. */
export function hubServices(): ReturnType<typeof createHubServices> {
  services ??= createHubServices();
  return services;
}
