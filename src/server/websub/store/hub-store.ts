/**
 * The one contract between the hub's code and its state, with two adapters:
 * SQLite (`sqlite-store.ts`, the embedded default, one process) and PostgreSQL
 * (`postgres-store.ts`, any number of instances on one database). Both pass
 * test/integration/websub-store-contract.test.ts.
 *
 * Work items (verifications, deliveries, denials) are claimed with a token and a
 * claim deadline (a lease); an outcome is recorded only while the claim still
 * holds (compare and swap on the token). So an instance that dies before it
 * records an outcome leaves the item to be claimed again once the lease passes,
 * and a recorded success is final. A claim takes at most `perHost` items per
 * callback host counting the claims still held, so one slow host cannot occupy
 * every slot of the workers.
 */
import type { RateDecision } from '../../../domain/websub/rate-limit.ts';

export interface SubscriptionInput {
  topic: string;
  callback: string;
  callbackHost: string;
  /** The callback host's first resolved address (sorted), for the per-address cap. */
  callbackAddress: string;
  secret: string | null;
  leaseSeconds: number;
}

export interface VerificationRequest extends SubscriptionInput {
  mode: 'subscribe' | 'unsubscribe';
  /** Who asked (clientKey of the request's address), for the per-client limit on pending verifications. */
  clientKey: string;
}

export interface VerificationClaim extends VerificationRequest {
  id: number;
  token: string;
  revision: number;
}

export interface DeliveryClaim {
  id: number;
  token: string;
  subscriptionId: number;
  contentId: number;
  topic: string;
  callback: string;
  secret: string | null;
  failures: number;
}

export interface DenialClaim {
  id: number;
  token: string;
  topic: string;
  callback: string;
  reason: string;
}

export interface StoredContent {
  contentType: string;
  body: Uint8Array;
}

export interface SubscriptionRow {
  id: number;
  topic: string;
  callback: string;
  callbackHost: string;
  callbackAddress: string;
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  failures: number;
}

export interface ClaimLimits {
  /** Items claimed at most. */
  limit: number;
  /** How long the claim holds (ms). */
  claimMs: number;
  /** Claims held at most per callback host, counting this one's. */
  perHost: number;
}

/** Which subscriptions (held or being verified) to count: those on this host name or on any of these addresses. */
export interface SubscriptionFilter {
  host: string;
  addresses: readonly string[];
}

export interface PendingFilter {
  clientKey?: string;
  host?: string;
}

export interface HubStore {
  /** Records a subscribe or unsubscribe intent to verify; replaces a pending one for the same pair. */
  requestVerification(request: VerificationRequest, now: number): Promise<void>;
  /** Whether the pair is already subscribed or waiting for verification (renewals skip the caps). */
  isKnownPair(topic: string, callback: string): Promise<boolean>;
  /** Subscriptions plus subscribe requests being verified, overall or on one host (by name or address). */
  subscriptionCount(filter?: SubscriptionFilter): Promise<number>;
  /** Verifications waiting, overall or of one client or one callback host. */
  pendingVerificationCount(filter?: PendingFilter): Promise<number>;
  activateSubscription(input: SubscriptionInput, now: number): Promise<void>;
  claimVerifications(now: number, limits: ClaimLimits): Promise<VerificationClaim[]>;
  /** Applies a verification's outcome; a newer request for the same pair that arrived meanwhile wins. */
  completeVerification(claim: VerificationClaim, verified: boolean, now: number): Promise<'applied' | 'superseded' | 'lost'>;
  /**
   * Queues a delivery per live subscription when the bytes whose digest is `hash`
   * differ from what was last distributed. `body` is read only when a subscription
   * is there to receive them: a topic nobody follows records its digest, not its
   * bytes (an empty body: a topic is never empty), so a switch to a build whose
   * /reviews.json is 164 MB neither reads nor writes it.
   */
  publishContent(topic: string, hash: string, contentType: string, body: () => Uint8Array, now: number): Promise<{ changed: boolean; queued: number }>;
  claimDeliveries(now: number, limits: ClaimLimits): Promise<DeliveryClaim[]>;
  content(contentId: number): Promise<StoredContent | undefined>;
  /** A 2xx: the delivery is done unless newer content replaced it meanwhile (then that goes out now). */
  deliverySucceeded(claim: DeliveryClaim, now: number): Promise<void>;
  /** A failed attempt: retry at `retryAt`, keeping whatever content is newest by then. */
  deliveryFailed(claim: DeliveryClaim, failures: number, retryAt: number, error: string): Promise<void>;
  /** Ends a subscription (its pending delivery goes with it); with a reason, the callback is told. */
  removeSubscription(claim: DeliveryClaim, now: number, denialReason?: string): Promise<void>;
  claimDenials(now: number, limits: ClaimLimits): Promise<DenialClaim[]>;
  denialSent(claim: DenialClaim): Promise<void>;
  /** Drops expired subscriptions (with their pending deliveries) and content nobody needs any more. */
  sweep(now: number): Promise<void>;
  /** When the earliest pending item becomes claimable (epoch ms), or undefined when nothing waits. */
  nextDueAt(now: number): Promise<number | undefined>;
  subscriptions(): Promise<SubscriptionRow[]>;
  pendingDeliveryCount(): Promise<number>;
  /** Tells every instance sharing the store that there is new work (no-op for a single process). */
  announceWork(): Promise<void>;
  /** Calls `listener` when another instance announced work. */
  onWork(listener: () => void): void;
  /** What keeps the store from working now (file removed or replaced, a failed write, the database unreachable), or undefined. */
  problem(): Promise<string | undefined>;
  /** The per-client rate limit, shared by every instance on the store. */
  takeRateToken(key: string, now: number): Promise<RateDecision>;
  close(): Promise<void>;
}

/** The store cannot be used now; the message says why and what to do. The hub answers 503 with it. */
export class HubStoreUnavailable extends Error {}

/** Row values as both drivers return them (pg gives BIGINT as a string). */
export type Row = Record<string, unknown>;

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** The body a content row holds when no subscription followed its topic (see publishContent). */
export const NOT_KEPT = new Uint8Array(0);

export function subscriptionRow(row: Row): SubscriptionRow {
  return {
    id: Number(row.id), topic: String(row.topic), callback: String(row.callback), callbackHost: String(row.callback_host),
    callbackAddress: String(row.callback_address), secret: text(row.secret), leaseSeconds: Number(row.lease_seconds),
    expiresAt: Number(row.expires_at), failures: Number(row.failures),
  };
}

export function verificationClaim(row: Row, token: string): VerificationClaim {
  return {
    id: Number(row.id), token, revision: Number(row.revision), topic: String(row.topic), callback: String(row.callback),
    callbackHost: String(row.callback_host), callbackAddress: String(row.callback_address), clientKey: String(row.client_key),
    mode: row.mode as VerificationRequest['mode'], secret: text(row.secret), leaseSeconds: Number(row.lease_seconds),
  };
}

export function deliveryClaim(row: Row, token: string): DeliveryClaim {
  return {
    id: Number(row.id), token, subscriptionId: Number(row.subscription_id), contentId: Number(row.content_id),
    topic: String(row.topic), callback: String(row.callback), secret: text(row.secret), failures: Number(row.failures),
  };
}

export function denialClaim(row: Row, token: string): DenialClaim {
  return { id: Number(row.id), token, topic: String(row.topic), callback: String(row.callback), reason: String(row.reason) };
}
