/**
 * The HubStore on one SQLite file (node:sqlite, synchronous underneath): the
 * embedded default for a hub in one process. Each method is one statement or one
 * `BEGIN IMMEDIATE` transaction, so a killed process loses no committed outcome.
 * The rate limit stays in memory: only this process uses the file.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { leaseExpiresAt } from '../../../domain/websub/lease.ts';
import { createRateLimiter, type RateLimitOptions } from '../../../domain/websub/rate-limit.ts';
import {
  deliveryClaim, denialClaim, NOT_KEPT, subscriptionRow, verificationClaim,
  type ClaimLimits, type HubStore, type Row, type SubscriptionInput,
} from './hub-store.ts';
import { guardDatabaseFile } from './sqlite-guard.ts';

export interface SqliteStoreOptions {
  /** The file `db` was opened from, watched while the server runs (sqlite-guard.ts); omitted for `:memory:`. */
  file?: string;
  log?: (line: string) => void;
}

/** Store calls that touch no file: not guarded. */
const UNGUARDED = new Set<keyof HubStore>(['onWork', 'announceWork', 'problem', 'close']);

export function createSqliteStore(db: DatabaseSync, rate: RateLimitOptions, options: SqliteStoreOptions = {}): HubStore {
  const guard = guardDatabaseFile(options.file ?? ':memory:', options.log ?? ((line) => console.error(`[hub] ${line}`)));
  const store = createStore(db, rate);
  store.problem = async () => guard.problem();
  const guarded = Object.entries(store).map(([name, method]) => {
    if (UNGUARDED.has(name as keyof HubStore)) return [name, method];
    const call = method as (...args: unknown[]) => Promise<unknown>;
    return [name, async (...args: unknown[]) => {
      guard.assertUsable();
      try {
        return await call(...args);
      } catch (error) {
        guard.failed(error);
      }
    }];
  });
  return Object.fromEntries(guarded) as HubStore;
}

function createStore(db: DatabaseSync, rate: RateLimitOptions): HubStore {
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
  const limiter = createRateLimiter(rate);

  function transaction<T>(work: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }

  /** True while the claim identified by `token` still owns the row. */
  const holds = (table: 'verifications' | 'deliveries' | 'denials', id: number, token: string) =>
    get(`SELECT 1 AS ok FROM ${table} WHERE id = ? AND claim_token = ?`, id, token) !== undefined;

  function activate(input: SubscriptionInput, now: number): void {
    run(
      `INSERT INTO subscriptions (topic, callback, callback_host, callback_address, secret, lease_seconds, expires_at, failures, created_at, renewed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
       ON CONFLICT (topic, callback) DO UPDATE SET callback_host = excluded.callback_host, callback_address = excluded.callback_address,
         secret = excluded.secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at, failures = 0, renewed_at = excluded.renewed_at`,
      input.topic, input.callback, input.callbackHost, input.callbackAddress, input.secret, input.leaseSeconds,
      leaseExpiresAt(now, input.leaseSeconds), now, now,
    );
  }

  /**
   * The ids of due, unclaimed rows of `table`, at most `perHost` per callback host
   * counting the claims still held there, earliest first.
   */
  const pickPerHost = (from: string, due: string, held: string) => `
    WITH busy AS (SELECT host, COUNT(*) AS n FROM (${from}) WHERE ${held} GROUP BY host),
    candidates AS (
      SELECT item.id, item.due_at,
             ROW_NUMBER() OVER (PARTITION BY item.host ORDER BY item.due_at, item.id) + COALESCE(busy.n, 0) AS slot
      FROM (${from}) AS item LEFT JOIN busy ON busy.host = item.host WHERE ${due})
    SELECT id FROM candidates WHERE slot <= ? ORDER BY due_at, id LIMIT ?`;
  const claimable = 'due_at <= ? AND (claim_token IS NULL OR claimed_until <= ?)';
  const heldNow = 'claim_token IS NOT NULL AND claimed_until > ?';
  const VERIFICATIONS = 'SELECT id, due_at, claim_token, claimed_until, callback_host AS host FROM verifications';
  const DELIVERIES = `SELECT d.id, d.due_at, d.claim_token, d.claimed_until, s.callback_host AS host, s.expires_at
    FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id`;
  // A denial notice is one attempt to one callback: its callback stands in for the host.
  const DENIALS = `SELECT id, due_at, claim_token, claimed_until, callback AS host FROM denials`;

  function claim(table: string, from: string, extra: string, now: number, limits: ClaimLimits, extraParams: SQLInputValue[] = []) {
    const token = randomUUID();
    const ids = all(
      pickPerHost(from, `${claimable}${extra}`, heldNow),
      now, now, now, ...extraParams, limits.perHost, limits.limit,
    ).map((row) => Number(row.id));
    if (ids.length === 0) return { token, ids };
    run(`UPDATE ${table} SET claim_token = ?, claimed_until = ? WHERE id IN (${ids.map(() => '?').join(',')})`, token, now + limits.claimMs, ...ids);
    return { token, ids };
  }

  return {
    async requestVerification(request, now) {
      run(
        `INSERT INTO verifications (topic, callback, callback_host, callback_address, client_key, mode, secret, lease_seconds, due_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (topic, callback) DO UPDATE SET callback_host = excluded.callback_host, callback_address = excluded.callback_address,
           client_key = excluded.client_key, mode = excluded.mode, secret = excluded.secret, lease_seconds = excluded.lease_seconds,
           revision = revision + 1, due_at = excluded.due_at`,
        request.topic, request.callback, request.callbackHost, request.callbackAddress, request.clientKey, request.mode,
        request.secret, request.leaseSeconds, now, now,
      );
    },

    async isKnownPair(topic, callback) {
      return (
        get('SELECT 1 AS ok FROM subscriptions WHERE topic = ? AND callback = ?', topic, callback) !== undefined ||
        get('SELECT 1 AS ok FROM verifications WHERE topic = ? AND callback = ?', topic, callback) !== undefined
      );
    },

    async subscriptionCount(filter) {
      if (!filter) {
        return count(`SELECT COUNT(*) AS n FROM (SELECT topic, callback FROM subscriptions
          UNION SELECT topic, callback FROM verifications WHERE mode = 'subscribe')`);
      }
      const addresses = JSON.stringify(filter.addresses);
      const on = `(callback_host = ? OR callback_address IN (SELECT value FROM json_each(?)))`;
      return count(
        `SELECT COUNT(*) AS n FROM (SELECT topic, callback FROM subscriptions WHERE ${on}
         UNION SELECT topic, callback FROM verifications WHERE ${on} AND mode = 'subscribe')`,
        filter.host, addresses, filter.host, addresses,
      );
    },

    async pendingVerificationCount(filter = {}) {
      const where = [filter.clientKey === undefined ? '' : 'client_key = ?', filter.host === undefined ? '' : 'callback_host = ?'].filter(Boolean);
      const params = [filter.clientKey, filter.host].filter((p) => p !== undefined);
      return count(`SELECT COUNT(*) AS n FROM verifications ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`, ...params);
    },

    async activateSubscription(input, now) {
      activate(input, now);
    },

    async claimVerifications(now, limits) {
      return transaction(() => {
        const { token, ids } = claim('verifications', VERIFICATIONS, '', now, limits);
        if (ids.length === 0) return [];
        return all(`SELECT * FROM verifications WHERE claim_token = ? ORDER BY due_at, id`, token).map((row) => verificationClaim(row, token));
      });
    },

    async completeVerification(claimed, verified, now) {
      return transaction(() => {
        const row = get('SELECT revision, claim_token FROM verifications WHERE id = ?', claimed.id);
        if (!row || row.claim_token !== claimed.token) return 'lost';
        if (Number(row.revision) !== claimed.revision) {
          run('UPDATE verifications SET claim_token = NULL, claimed_until = NULL, due_at = ? WHERE id = ?', now, claimed.id);
          return 'superseded';
        }
        if (verified && claimed.mode === 'subscribe') activate(claimed, now);
        if (verified && claimed.mode === 'unsubscribe') run('DELETE FROM subscriptions WHERE topic = ? AND callback = ?', claimed.topic, claimed.callback);
        run('DELETE FROM verifications WHERE id = ?', claimed.id);
        return 'applied';
      });
    },

    async publishContent(topic, hash, contentType, body, now) {
      return transaction(() => {
        const current = get('SELECT c.hash FROM topics t JOIN contents c ON c.id = t.content_id WHERE t.topic = ?', topic);
        if (current?.hash === hash) return { changed: false, queued: 0 };
        const followed = get('SELECT 1 AS found FROM subscriptions WHERE topic = ? AND expires_at > ? LIMIT 1', topic, now) !== undefined;
        const content = get(
          `INSERT INTO contents (topic, hash, content_type, body, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (topic, hash) DO UPDATE SET content_type = excluded.content_type${followed ? ', body = excluded.body' : ''} RETURNING id`,
          topic, hash, contentType, followed ? body() : NOT_KEPT, now,
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

    async claimDeliveries(now, limits) {
      return transaction(() => {
        const { token, ids } = claim('deliveries', DELIVERIES, ' AND expires_at > ?', now, limits, [now]);
        if (ids.length === 0) return [];
        return all(
          `SELECT d.id, d.subscription_id, d.content_id, s.topic, s.callback, s.secret, s.failures
           FROM deliveries d JOIN subscriptions s ON s.id = d.subscription_id WHERE d.claim_token = ? ORDER BY d.due_at, d.id`,
          token,
        ).map((row) => deliveryClaim(row, token));
      });
    },

    async content(contentId) {
      const row = get('SELECT content_type, body FROM contents WHERE id = ?', contentId);
      return row && { contentType: String(row.content_type), body: row.body as Uint8Array };
    },

    async deliverySucceeded(claimed, now) {
      transaction(() => {
        run('UPDATE subscriptions SET failures = 0 WHERE id = ?', claimed.subscriptionId);
        const row = get('SELECT content_id, claim_token FROM deliveries WHERE id = ?', claimed.id);
        if (!row || row.claim_token !== claimed.token) return;
        if (Number(row.content_id) === claimed.contentId) run('DELETE FROM deliveries WHERE id = ?', claimed.id);
        else run('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL, due_at = ? WHERE id = ?', now, claimed.id);
      });
    },

    async deliveryFailed(claimed, failures, retryAt, error) {
      transaction(() => {
        if (!holds('deliveries', claimed.id, claimed.token)) return;
        run('UPDATE subscriptions SET failures = ? WHERE id = ?', failures, claimed.subscriptionId);
        run('UPDATE deliveries SET claim_token = NULL, claimed_until = NULL, due_at = ?, last_error = ? WHERE id = ?', retryAt, error, claimed.id);
      });
    },

    async removeSubscription(claimed, now, denialReason) {
      transaction(() => {
        if (!holds('deliveries', claimed.id, claimed.token)) return;
        run('DELETE FROM subscriptions WHERE id = ?', claimed.subscriptionId);
        if (denialReason) {
          run('INSERT INTO denials (topic, callback, reason, due_at, created_at) VALUES (?, ?, ?, ?, ?)', claimed.topic, claimed.callback, denialReason, now, now);
        }
      });
    },

    async claimDenials(now, limits) {
      return transaction(() => {
        const { token, ids } = claim('denials', DENIALS, '', now, limits);
        if (ids.length === 0) return [];
        return all('SELECT id, topic, callback, reason FROM denials WHERE claim_token = ? ORDER BY due_at, id', token).map((row) => denialClaim(row, token));
      });
    },

    async denialSent(claimed) {
      run('DELETE FROM denials WHERE id = ? AND claim_token = ?', claimed.id, claimed.token);
    },

    async sweep(now) {
      transaction(() => {
        run('DELETE FROM subscriptions WHERE expires_at <= ?', now);
        run(`DELETE FROM contents WHERE id NOT IN (SELECT content_id FROM topics) AND id NOT IN (SELECT content_id FROM deliveries)`);
      });
    },

    async nextDueAt(now) {
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

    async subscriptions() {
      return all('SELECT * FROM subscriptions ORDER BY id').map(subscriptionRow);
    },

    async pendingDeliveryCount() {
      return count('SELECT COUNT(*) AS n FROM deliveries');
    },

    // One process: the hub wakes its own worker directly.
    async announceWork() {},

    onWork() {},

    async takeRateToken(key, now) {
      return limiter.take(key, now);
    },

    // Replaced by the guard's answer in createSqliteStore.
    async problem() {
      return undefined;
    },

    async close() {
      if (db.isOpen) db.close();
    },
  };
}
