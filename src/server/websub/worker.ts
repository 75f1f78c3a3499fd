/**
 * The hub's background worker: claims due verifications, deliveries and denial
 * notices from the store, runs them concurrently up to a bound, records each
 * outcome, and sleeps until the next item is due. All its state is in the store,
 * so a restarted process simply carries on.
 */
import { randomBytes } from 'node:crypto';
import { afterFailedAttempt } from '../../domain/websub/backoff.ts';
import { denialUrl, notificationHeaders, verificationUrl } from '../../domain/websub/messages.ts';
import type { HttpClient } from './https-client.ts';
import { HubStoreUnavailable, type DeliveryClaim, type DenialClaim, type HubStore, type StoredContent, type VerificationClaim } from './store/hub-store.ts';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface WorkerOptions {
  store: HubStore;
  client: HttpClient;
  clock: Clock;
  hubUrl: string;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  /** Requests in flight at most. */
  concurrency: number;
  /** Requests in flight at most to one callback host (across instances sharing the store): a slow host cannot take every slot. */
  perHostConcurrency: number;
  log: (line: string) => void;
}

const VERIFY_READ_BYTES = 1024;
/** New connections get at most this long for TCP and TLS (less when HUB_TIMEOUT_MS is shorter). */
const CONNECT_TIMEOUT_MS = 3000;
const DELIVERY_READ_BYTES = 64 * 1024;
const SWEEP_EVERY_MS = 1000;
const IDLE_WAKE_MS = 60_000;
const HOST_BUSY_LOOK_MS = 250;

const isSuccess = (status: number) => status >= 200 && status < 300;

export function createWorker(options: WorkerOptions) {
  const { store, client, clock, hubUrl, retryDelaysMs, timeoutMs, concurrency, perHostConcurrency, log } = options;
  // A claim outlives the attempt's own time limit, so it never lapses while the attempt can still succeed.
  const claimMs = timeoutMs + 2000;
  const connectTimeoutMs = Math.min(CONNECT_TIMEOUT_MS, timeoutMs);
  const inFlight = new Set<Promise<void>>();
  const shutdown = new AbortController();
  const contents = new Map<number, Promise<StoredContent | undefined>>();
  let timer: NodeJS.Timeout | undefined;
  let wakeQueued = false;
  let ticking: Promise<void> | undefined;
  let started = false;
  let lastSweep = Number.NEGATIVE_INFINITY;

  /** The body of a content version; a fan-out reads it once, not once per subscriber (concurrent readers share one read). */
  function contentOf(id: number): Promise<StoredContent | undefined> {
    let content = contents.get(id);
    if (!content) {
      content = store.content(id);
      if (contents.size >= 8) contents.delete(contents.keys().next().value as number);
      contents.set(id, content);
      // A failed or empty read is not kept.
      content.then((found) => found || contents.delete(id), () => contents.delete(id));
    }
    return content;
  }

  const interrupted = () => shutdown.signal.aborted;

  async function verify(claim: VerificationClaim): Promise<void> {
    const challenge = randomBytes(24).toString('base64url');
    const url = verificationUrl(claim.callback, { mode: claim.mode, topic: claim.topic, challenge, leaseSeconds: claim.leaseSeconds });
    let problem: string | undefined;
    try {
      const res = await client({ method: 'GET', url, timeoutMs, connectTimeoutMs, maxResponseBytes: VERIFY_READ_BYTES, signal: shutdown.signal });
      if (!isSuccess(res.status)) problem = `answered ${res.status}`;
      else if (!res.body.equals(Buffer.from(challenge))) problem = 'answered without echoing the exact hub.challenge';
    } catch (error) {
      problem = (error as Error).message;
    }
    // Cut short by a shutdown: the claim lapses and the next process verifies again.
    if (interrupted()) return;
    const outcome = await store.completeVerification(claim, problem === undefined, clock.now());
    if (outcome === 'applied') {
      log(`${claim.mode} ${problem ? `refused (${problem})` : 'verified'}: ${claim.callback} for ${claim.topic}`);
    }
  }

  async function deliver(claim: DeliveryClaim): Promise<void> {
    const content = await contentOf(claim.contentId);
    if (!content) return;
    let problem: string | undefined;
    let gone = false;
    try {
      const headers = notificationHeaders({ hubUrl, topicUrl: claim.topic, contentType: content.contentType, body: content.body, secret: claim.secret });
      const res = await client({
        method: 'POST', url: claim.callback, headers, body: content.body, timeoutMs, connectTimeoutMs, maxResponseBytes: DELIVERY_READ_BYTES, signal: shutdown.signal,
      });
      gone = res.status === 410;
      if (!isSuccess(res.status)) problem = res.status >= 300 && res.status < 400 ? `answered ${res.status} (redirects are not followed)` : `answered ${res.status}`;
    } catch (error) {
      problem = (error as Error).message;
    }
    if (interrupted()) return;
    const now = clock.now();
    if (problem === undefined) return store.deliverySucceeded(claim, now);
    if (gone) {
      log(`subscription ended by 410 Gone: ${claim.callback} for ${claim.topic}`);
      return store.removeSubscription(claim, now);
    }
    const failures = claim.failures + 1;
    const next = afterFailedAttempt(failures, retryDelaysMs);
    if (next.action === 'remove') {
      log(`subscription removed after ${failures} failed deliveries (${problem}): ${claim.callback} for ${claim.topic}`);
      return store.removeSubscription(claim, now, `${failures} consecutive delivery attempts failed; the last one: ${problem}`);
    }
    log(`delivery attempt ${failures} failed (${problem}), next in ${next.delayMs} ms: ${claim.callback}`);
    await store.deliveryFailed(claim, failures, now + next.delayMs, problem);
  }

  async function deny(claim: DenialClaim): Promise<void> {
    try {
      await client({ method: 'GET', url: denialUrl(claim.callback, claim.topic, claim.reason), timeoutMs, connectTimeoutMs, maxResponseBytes: VERIFY_READ_BYTES, signal: shutdown.signal });
    } catch {
      // A courtesy notice: one attempt, whatever it gives.
    }
    if (!interrupted()) await store.denialSent(claim);
  }

  /** Logs a store failure once, not once a second or once per job; a later success lets the next failure be logged. */
  let lastFailure: string | undefined;
  function storeFailed(error: unknown, what: string): void {
    const message = (error as Error).message;
    if (message === lastFailure) return;
    lastFailure = message;
    // The guarded SQLite store has logged the cause itself.
    if (!(error instanceof HubStoreUnavailable)) log(`${what}: ${(error as Error).stack ?? message}`);
  }

  function launch(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => storeFailed(error, 'unexpected error in a hub job'))
      .finally(() => {
        inFlight.delete(tracked);
        wake();
      });
    inFlight.add(tracked);
  }

  /**
   * Claims what is due now, up to the free slots; the number of jobs started (counted as they
   * start: a job may already have finished when this returns, so the size of inFlight won't do).
   */
  async function claimDue(): Promise<number> {
    const now = clock.now();
    if (now - lastSweep >= SWEEP_EVERY_MS) {
      await store.sweep(now);
      lastSweep = now;
    }
    let launched = 0;
    const limits = () => ({ limit: concurrency - inFlight.size, claimMs, perHost: perHostConcurrency });
    const run = (job: Promise<void>) => {
      launch(job);
      launched++;
    };
    // Verifications first: a subscriber waits for them; deliveries next; notices last.
    if (limits().limit > 0) for (const claim of await store.claimVerifications(now, limits())) run(verify(claim));
    if (limits().limit > 0) for (const claim of await store.claimDeliveries(now, limits())) run(deliver(claim));
    if (limits().limit > 0) for (const claim of await store.claimDenials(now, limits())) run(deny(claim));
    return launched;
  }

  async function look(): Promise<void> {
    let delay = IDLE_WAKE_MS;
    try {
      await claimDue();
      // With every slot taken, the next completion wakes us.
      if (inFlight.size >= concurrency) return;
      const now = clock.now();
      const due = await store.nextDueAt(now);
      // Due now but not claimed: its host is at its limit. Our own completions wake us at once;
      // another instance's are seen by the next look, so no spinning on the store meanwhile.
      if (due !== undefined) delay = due <= now ? HOST_BUSY_LOOK_MS : Math.min(IDLE_WAKE_MS, Math.max(5, due - now));
      lastFailure = undefined;
    } catch (error) {
      storeFailed(error, 'hub worker error, retrying every second');
      delay = 1000;
    }
    if (!started || interrupted()) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timer.unref();
  }

  function tick(): void {
    wakeQueued = false;
    clearTimeout(timer);
    // A look queued before stop() must not claim anything.
    if (!started || interrupted()) return;
    // One look at a time; a wake during a look asks for another one after it.
    if (ticking) {
      wakeQueued = true;
      return;
    }
    ticking = look().finally(() => {
      ticking = undefined;
      if (wakeQueued) setImmediate(tick);
    });
  }

  /** Looks for work soon (new requests, finished jobs, another instance's news); several calls in a row make one look. */
  function wake(): void {
    if (!started || wakeQueued || interrupted()) return;
    wakeQueued = true;
    if (!ticking) setImmediate(tick);
  }

  return {
    start(): void {
      started = true;
      wake();
    },
    wake,
    /** Runs everything due now to completion (tests drive the clock themselves). */
    async runDue(): Promise<void> {
      // A job that ends while the claims are still being made may have made more work due
      // (a superseded verification): after any start, look again before deciding all is done.
      for (;;) {
        const startedNow = await claimDue();
        if (inFlight.size > 0) await Promise.race(inFlight);
        else if (startedNow === 0) return;
      }
    },
    /** Stops claiming, lets jobs in flight finish for up to `graceMs`, then cuts them short. */
    async stop(graceMs: number): Promise<void> {
      started = false;
      clearTimeout(timer);
      await ticking;
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      clearTimeout(graceTimer);
      shutdown.abort(new Error('the hub is shutting down'));
      await Promise.allSettled([...inFlight]);
    },
  };
}
