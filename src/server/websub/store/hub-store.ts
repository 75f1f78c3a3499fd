/**
 * Every read and write of the hub's state. Work items (verifications,
 * deliveries, denials) are claimed with a token and a claim deadline in one
 * UPDATE; an outcome is recorded only while the claim still holds (compare and
 * swap on the token). So a crash before an outcome is recorded leaves the item to
 * be claimed again once the deadline passes, and a recorded success is final.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { leaseExpiresAt } from '../../../domain/websub/lease.ts';

export interface SubscriptionInput {
  topic: string;
  callback: string;
  callbackHost: string;
  secret: string | null;
  leaseSeconds: number;
}

export interface VerificationRequest extends SubscriptionInput {
  mode: 'subscribe' | 'unsubscribe';
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
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  failures: number;
}

type Row = Record<string, unknown>;

export function createHubStore(db: DatabaseSync) {
  const statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  const sql = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
  const get = (text: string, ...params: SQLInputValue[]) => sql(text).get(...params) as Row | undefined;
  const all = (text: string, ...params: SQLInputValue[]) => sql(text).all(...params) as Row[];
  const run = (text: string, ...params: SQLInputValue[]) => Number(sql(text).run(...params).changes);
  const count = (text: string, ...params: SQLInputValue[]) => Number((get(text, ...params) as Row).n);

  function transaction<T>(work: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }

  /** True while the claim identified by `token` still owns the row. */
  const holds = (table: 'verifications' | 'deliveries' | 'denials', id: number, token: string) =>
    get(`SELECT 1 AS ok FROM ${table} WHERE id = ? AND claim_token = ?`, id, token) !== undefined;

  function activateSubscription(input: SubscriptionInput, now: number): void {
    run(
      `INSERT INTO subscriptions (topic, callback, callback_host, secret, lease_seconds, expires_at, failures, created_at, renewed_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)
       ON CONFLICT (topic, callback) DO UPDATE SET callback_host = excluded.callback_host, secret = excluded.secret,
         lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at, failures = 0, renewed_at = excluded.renewed_at`,
      input.topic, input.callback, input.callbackHost, input.secret, input.leaseSeconds, leaseExpiresAt(now, input.leaseSeconds), now, now,
    );
  }

  return {
    /** Records a subscribe or unsubscribe intent to verify; replaces a pending one for the same pair. */
    requestVerification(request: VerificationRequest, now: number): void {
      run(
        `INSERT INTO verifications (topic, callback, callback_host, mode, secret, lease_seconds, due_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (topic, callback) DO UPDATE SET callback_host = excluded.callback_host, mode = excluded.mode,
           secret = excluded.secret, lease_seconds = excluded.lease_seconds, revision = revision + 1, due_at = excluded.due_at`,
        request.topic, request.callback, request.callbackHost, request.mode, request.secret, request.leaseSeconds, now, now,
      );
    },

    /** Whether the pair is already subscribed or waiting for verification (renewals skip the caps). */
    isKnownPair(topic: string, callback: string): boolean {
      return (
        get('SELECT 1 AS ok FROM subscriptions WHERE topic = ? AND callback = ?', topic, callback) !== undefined ||
        get('SELECT 1 AS ok FROM verifications WHERE topic = ? AND callback = ?', topic, callback) !== undefined
      );
    },

    /** Subscriptions plus subscribe requests being verified, overall or for one callback host. */
    subscriptionCount(host?: string): number {
      const filter = host === undefined ? '' : 'WHERE callback_host = ?';
      const params = host === undefined ? [] : [host, host];
      return count(
        `SELECT COUNT(*) AS n FROM (SELECT topic, callback FROM subscriptions ${filter}
         UNION SELECT topic, callback FROM verifications ${filter ? `${filter} AND` : 'WHERE'} mode = 'subscribe')`,
        ...params,
      );
    },

    pendingVerificationCount(): number {
      return count('SELECT COUNT(*) AS n FROM verifications');
    },

    activateSubscription,

    claimVerifications(now: number, limit: number, claimMs: number): VerificationClaim[] {
      const token = randomUUID();
      return all(
        `UPDATE verifications SET claim_token = ?, claimed_until = ?
         WHERE id IN (SELECT id FROM verifications WHERE due_at <= ? AND (claim_token IS NULL OR claimed_until <= ?)
                      ORDER BY due_at, id LIMIT ?)
         RETURNING id, topic, callback, callback_host, mode, secret, lease_seconds, revision`,
        token, now + claimMs, now, now, limit,
      ).map((row) => ({
        id: Number(row.id), token, revision: Number(row.revision), topic: String(row.topic), callback: String(row.callback),
        callbackHost: String(row.callback_host), mode: row.mode as VerificationRequest['mode'],
        secret: row.secret === null ? null : String(row.secret), leaseSeconds: Number(row.lease_seconds),
      }));
    },

    /**
     * Applies a verification's outcome. A newer request for the same pair that
     * arrived meanwhile wins: this outcome is dropped and the newer one runs.
     */
    completeVerification(claim: VerificationClaim, verified: boolean, now: number): 'applied' | 'superseded' | 'lost' {
      return transaction(() => {
        const row = get('SELECT revision, claim_token FROM verifications WHERE id = ?', claim.id);
        if (!row || row.claim_token !== claim.token) return 'lost';
        if (Number(row.revision) !== claim.revision) {
          run('UPDATE verifications SET claim_token = NULL, claimed_until = NULL, due_at = ? WHERE id = ?', now, claim.id);
          return 'superseded';
        }
        if (verified && claim.mode === 'subscribe') activateSubscription(claim, now);
        if (verified && claim.mode === 'unsubscribe') run('DELETE FROM subscriptions WHERE topic = ? AND callback = ?', claim.topic, claim.callback);
        run('DELETE FROM verifications WHERE id = ?', claim.id);
        return 'applied';
      });
    },

    /** The topic's content id when these bytes differ from what was last distributed, queuing a delivery per live subscription. */
    publishContent(topic: string, hash: string, contentType: string, body: Uint8Array, now: number): { changed: boolean; queued: number } {
      return transaction(() => {
        const current = get('SELECT c.hash FROM topics t JOIN contents c ON c.id = t.content_id WHERE t.topic = ?', topic);
        if (current?.hash === hash) return { changed: false, queued: 0 };
        const content = get(
          `INSERT INTO contents (topic, hash, content_type, body, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (topic, hash) DO UPDATE SET content_type = excluded.content_type RETURNING id`,
          topic, hash, contentType, body, now,
        ) as Row;
        const contentId = Number(content.id);
        run(
          `INSERT INTO topics (topic, content_id, published_at) VALUES (?, ?, ?)
           ON CONFLICT (topic) DO UPDATE SET content_id = excluded.content_id, published_at = excluded.published_at`,
          topic, contentId, now,
        );
        const queued = run(
          `INSERT INTO deliveries (subscription_id, content_id, due_at, created_at)
           SELECT id, ?, ?, ? FROM subscriptions WHERE topic = ? AND expires_at > ?
           ON CONFLICT (subscription_id) DO UPDATE SET content_id = excluded.content_id`,
          contentId, now, now, topic, now,
        );
        return { changed: true, queued };
      });
    },

    claimDeliveries(now: number, limit: number, claimMs: number): DeliveryClaim[] {
      const token = randomUUID();
      run(
        `UPDATE deliveries SET claim_token = ?, claimed_until = ?
         WHERE id IN (SELECT d.id FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id
                      WHERE d.due_at <= ? AND (d.claim_token IS NULL OR d.claimed_until <= ?) AND s.expires_at > ?
                      ORDER BY d.due_at, d.id LIMIT ?)`,
        token, now + claimMs, now, now, now, limit,
      );
      return all(
        `SELECT d.id, d.subscription_id, d.content_id, s.topic, s.callback, s.secret, s.failures
         FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id WHERE d.claim_token = ? ORDER BY d.id`,
        token,
      ).map((row) => ({
        id: Number(row.id), token, subscriptionId: Number(row.subscription_id), contentId: Number(row.content_id),
        topic: String(row.topic), callback: String(row.callback), secret: row.secret === null ? null : String(row.secret),
        failures: Number(row.failures),
      }));
    },

    content(contentId: number): StoredContent | undefined {
      const row = get('SELECT content_type, body FROM contents WHERE id = ?', contentId);
      return row && { contentType: String(row.content_type), body: row.body as Uint8Array };
    },

    /** A 2xx: the delivery is done unless newer content replaced it meanwhile (then that goes out now). */
    deliverySucceeded(claim: DeliveryClaim, now: number): void {
      transaction(() => {
        run('UPDATE subscriptions SET failures = 0 WHERE id = ?', claim.subscriptionId);
        const row = get('SELECT content_id, claim_token FROM deliveries WHERE id = ?', claim.id);
        if (!row || row.claim_token !== claim.token) return;
        if (Number(row.content_id) === claim.contentId) run('DELETE FROM deliveries WHERE id = ?', claim.id);
        else run('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL, due_at = ? WHERE id = ?', now, claim.id);
      });
    },

    /** A failed attempt: retry at `retryAt`, keeping whatever content is newest by then. */
    deliveryFailed(claim: DeliveryClaim, failures: number, retryAt: number, error: string): void {
      transaction(() => {
        if (!holds('deliveries', claim.id, claim.token)) return;
        run('UPDATE subscriptions SET failures = ? WHERE id = ?', failures, claim.subscriptionId);
        run('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL, due_at = ?, last_error = ? WHERE id = ?', retryAt, error, claim.id);
      });
    },

    /** Ends a subscription (its pending delivery goes with it); with a reason, the callback is told. */
    removeSubscription(claim: DeliveryClaim, now: number, denialReason?: string): void {
      transaction(() => {
        if (!holds('deliveries', claim.id, claim.token)) return;
        run('DELETE FROM subscriptions WHERE id = ?', claim.subscriptionId);
        if (denialReason) {
          run('INSERT INTO denials (topic, callback, reason, due_at, created_at) VALUES (?, ?, ?, ?, ?)', claim.topic, claim.callback, denialReason, now, now);
        }
      });
    },

    claimDenials(now: number, limit: number, claimMs: number): DenialClaim[] {
      const token = randomUUID();
      return all(
        `UPDATE denials SET claim_token = ?, claimed_until = ?
         WHERE id IN (SELECT id FROM denials WHERE due_at <= ? AND (claim_token IS NULL OR claimed_until <= ?) ORDER BY due_at, id LIMIT ?)
         RETURNING id, topic, callback, reason`,
        token, now + claimMs, now, now, limit,
      ).map((row) => ({ id: Number(row.id), token, topic: String(row.topic), callback: String(row.callback), reason: String(row.reason) }));
    },

    denialSent(claim: DenialClaim): void {
      run('DELETE FROM denials WHERE id = ? AND claim_token = ?', claim.id, claim.token);
    },

    /** Drops expired subscriptions (with their pending deliveries) and content nobody needs any more. */
    sweep(now: number): void {
      transaction(() => {
        run('DELETE FROM subscriptions WHERE expires_at <= ?', now);
        run(
          `DELETE FROM contents WHERE id NOT IN (SELECT content_id FROM topics)
           AND id NOT IN (SELECT content_id FROM deliveries)`,
        );
      });
    },

    /** When the earliest pending item becomes claimable (epoch ms), or undefined when nothing waits. */
    nextDueAt(now: number): number | undefined {
      const due = (table: string) => `CASE WHEN ${table}.claim_token IS NULL THEN ${table}.due_at ELSE ${table}.claimed_until END`;
      const row = get(
        `SELECT MIN(t) AS next FROM (
           SELECT MIN(${due('v')}) AS t FROM verifications v
           UNION ALL SELECT MIN(${due('d')}) FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id WHERE s.expires_at > ?
           UNION ALL SELECT MIN(${due('n')}) FROM denials n)`,
        now,
      );
      return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
    },

    subscriptions(): SubscriptionRow[] {
      return all('SELECT id, topic, callback, secret, lease_seconds, expires_at, failures FROM subscriptions ORDER BY id').map((row) => ({
        id: Number(row.id), topic: String(row.topic), callback: String(row.callback), secret: row.secret === null ? null : String(row.secret),
        leaseSeconds: Number(row.lease_seconds), expiresAt: Number(row.expires_at), failures: Number(row.failures),
      }));
    },

    pendingDeliveryCount(): number {
      return count('SELECT COUNT(*) AS n FROM deliveries');
    },
  };
}

export type HubStore = ReturnType<typeof createHubStore>;
