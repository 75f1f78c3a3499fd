/**
 * The HubStore on PostgreSQL, shared by any number of instances. Claims lock
 * the rows they take with FOR UPDATE SKIP LOCKED (postgres-claims.ts), so two
 * instances claiming at once never take the same item and never wait for each
 * other; outcomes are compare-and-swap on the claim token as in SQLite. New work
 * is announced to every instance (postgres-work-channel.ts), so a publish through
 * one instance wakes the workers of all.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { leaseExpiresAt } from '../../../domain/websub/lease.ts';
import { type RateLimitOptions, refilledTokens, retryAfterSeconds } from '../../../domain/websub/rate-limit.ts';
import {
  deliveryClaim, denialClaim, NOT_KEPT, subscriptionRow, verificationClaim,
  type ClaimLimits, type HubStore, type Row, type SubscriptionInput,
} from './hub-store.ts';
import { pickedPerHost } from './postgres-claims.ts';
import { describeDatabaseUrl, openPostgresPool, type Queryable } from './postgres-database.ts';
import { openWorkChannel } from './postgres-work-channel.ts';

export async function openPostgresStore(url: string, rate: RateLimitOptions): Promise<HubStore> {
  const pool = await openPostgresPool(url);

  const rows = async (text: string, params: unknown[] = [], db: Queryable = pool) => (await db.query(text, params)).rows as Row[];
  const one = async (text: string, params: unknown[] = [], db: Queryable = pool) => (await rows(text, params, db))[0];
  const changes = async (text: string, params: unknown[] = [], db: Queryable = pool) => (await db.query(text, params)).rowCount ?? 0;
  const count = async (text: string, params: unknown[] = []) => Number((await one(text, params))?.n ?? 0);

  async function transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async function activate(input: SubscriptionInput, now: number, db: Queryable = pool): Promise<void> {
    await db.query(
      `INSERT INTO hub_subscriptions (topic, callback, callback_host, callback_address, secret, lease_seconds, expires_at, failures, created_at, renewed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $8)
       ON CONFLICT (topic, callback) DO UPDATE SET callback_host = excluded.callback_host, callback_address = excluded.callback_address,
         secret = excluded.secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at, failures = 0, renewed_at = excluded.renewed_at`,
      [input.topic, input.callback, input.callbackHost, input.callbackAddress, input.secret, input.leaseSeconds, leaseExpiresAt(now, input.leaseSeconds), now],
    );
  }

  const channel = await openWorkChannel(url);

  return {
    async requestVerification(request, now) {
      await pool.query(
        `INSERT INTO hub_verifications (topic, callback, callback_host, callback_address, client_key, mode, secret, lease_seconds, due_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (topic, callback) DO UPDATE SET callback_host = excluded.callback_host, callback_address = excluded.callback_address,
           client_key = excluded.client_key, mode = excluded.mode, secret = excluded.secret, lease_seconds = excluded.lease_seconds,
           revision = hub_verifications.revision + 1, due_at = excluded.due_at`,
        [request.topic, request.callback, request.callbackHost, request.callbackAddress, request.clientKey, request.mode, request.secret, request.leaseSeconds, now],
      );
    },

    async isKnownPair(topic, callback) {
      const row = await one(
        `SELECT EXISTS (SELECT 1 FROM hub_subscriptions WHERE topic = $1 AND callback = $2)
             OR EXISTS (SELECT 1 FROM hub_verifications WHERE topic = $1 AND callback = $2) AS ok`,
        [topic, callback],
      );
      return row?.ok === true;
    },

    async subscriptionCount(filter) {
      if (!filter) {
        return count(`SELECT COUNT(*) AS n FROM (SELECT topic, callback FROM hub_subscriptions
          UNION SELECT topic, callback FROM hub_verifications WHERE mode = 'subscribe') pairs`);
      }
      const on = '(callback_host = $1 OR callback_address = ANY($2::text[]))';
      return count(
        `SELECT COUNT(*) AS n FROM (SELECT topic, callback FROM hub_subscriptions WHERE ${on}
         UNION SELECT topic, callback FROM hub_verifications WHERE ${on} AND mode = 'subscribe') pairs`,
        [filter.host, [...filter.addresses]],
      );
    },

    async pendingVerificationCount(filter = {}) {
      const params: string[] = [];
      const where: string[] = [];
      if (filter.clientKey !== undefined) where.push(`client_key = $${params.push(filter.clientKey)}`);
      if (filter.host !== undefined) where.push(`callback_host = $${params.push(filter.host)}`);
      return count(`SELECT COUNT(*) AS n FROM hub_verifications ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`, params);
    },

    activateSubscription: (input, now) => activate(input, now),

    async claimVerifications(now, limits: ClaimLimits) {
      const token = randomUUID();
      const claimed = await rows(
        `${pickedPerHost('hub_verifications', 'SELECT id, due_at, claim_token, claimed_until, callback_host AS host FROM hub_verifications')}
         UPDATE hub_verifications v SET claim_token = $4, claimed_until = $5 FROM picked WHERE v.id = picked.id
         RETURNING v.*`,
        [now, limits.perHost, limits.limit, token, now + limits.claimMs],
      );
      return claimed.map((row) => verificationClaim(row, token)).sort((a, b) => a.id - b.id);
    },

    async completeVerification(claimed, verified, now) {
      return transaction(async (db) => {
        const row = await one('SELECT revision, claim_token FROM hub_verifications WHERE id = $1 FOR UPDATE', [claimed.id], db);
        if (!row || row.claim_token !== claimed.token) return 'lost';
        if (Number(row.revision) !== claimed.revision) {
          await db.query('UPDATE hub_verifications SET claim_token = NULL, claimed_until = NULL, due_at = $1 WHERE id = $2', [now, claimed.id]);
          return 'superseded';
        }
        if (verified && claimed.mode === 'subscribe') await activate(claimed, now, db);
        if (verified && claimed.mode === 'unsubscribe') {
          await db.query('DELETE FROM hub_subscriptions WHERE topic = $1 AND callback = $2', [claimed.topic, claimed.callback]);
        }
        await db.query('DELETE FROM hub_verifications WHERE id = $1', [claimed.id]);
        return 'applied';
      });
    },

    async publishContent(topic, hash, contentType, body, now) {
      return transaction(async (db) => {
        // Two instances publishing one topic at once take turns, so the second sees the first's hash.
        await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`hub-topic:${topic}`]);
        const current = await one('SELECT c.hash FROM hub_topics t JOIN hub_contents c ON c.id = t.content_id WHERE t.topic = $1', [topic], db);
        if (current?.hash === hash) return { changed: false, queued: 0 };
        const followed = (await one('SELECT 1 AS found FROM hub_subscriptions WHERE topic = $1 AND expires_at > $2 LIMIT 1', [topic, now], db)) !== undefined;
        const bytes = followed ? body() : NOT_KEPT;
        const content = await one(
          `INSERT INTO hub_contents (topic, hash, content_type, body, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (topic, hash) DO UPDATE SET content_type = excluded.content_type${followed ? ', body = excluded.body' : ''} RETURNING id`,
          [topic, hash, contentType, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), now],
          db,
        );
        const contentId = Number(content?.id);
        await db.query(
          `INSERT INTO hub_topics (topic, content_id, published_at) VALUES ($1, $2, $3)
           ON CONFLICT (topic) DO UPDATE SET content_id = excluded.content_id, published_at = excluded.published_at`,
          [topic, contentId, now],
        );
        const queued = await changes(
          `INSERT INTO hub_deliveries (subscription_id, content_id, due_at, created_at)
           SELECT id, $1, $2, $2 FROM hub_subscriptions WHERE topic = $3 AND expires_at > $2
           ON CONFLICT (subscription_id) DO UPDATE SET content_id = excluded.content_id`,
          [contentId, now, topic],
          db,
        );
        return { changed: true, queued };
      });
    },

    async claimDeliveries(now, limits) {
      const token = randomUUID();
      const items = `SELECT d.id, d.due_at, d.claim_token, d.claimed_until, s.callback_host AS host
        FROM hub_deliveries d JOIN hub_subscriptions s ON s.id = d.subscription_id WHERE s.expires_at > $1`;
      const claimed = await rows(
        `${pickedPerHost('hub_deliveries', items)}
         UPDATE hub_deliveries d SET claim_token = $4, claimed_until = $5 FROM picked, hub_subscriptions s
         WHERE d.id = picked.id AND s.id = d.subscription_id
         RETURNING d.id, d.subscription_id, d.content_id, s.topic, s.callback, s.secret, s.failures`,
        [now, limits.perHost, limits.limit, token, now + limits.claimMs],
      );
      return claimed.map((row) => deliveryClaim(row, token)).sort((a, b) => a.id - b.id);
    },

    async content(contentId) {
      const row = await one('SELECT content_type, body FROM hub_contents WHERE id = $1', [contentId]);
      return row && { contentType: String(row.content_type), body: row.body as Buffer };
    },

    async deliverySucceeded(claimed, now) {
      await transaction(async (db) => {
        await db.query('UPDATE hub_subscriptions SET failures = 0 WHERE id = $1', [claimed.subscriptionId]);
        const done = await changes('DELETE FROM hub_deliveries WHERE id = $1 AND claim_token = $2 AND content_id = $3', [claimed.id, claimed.token, claimed.contentId], db);
        // Newer content replaced the one just sent: it goes out now.
        if (done === 0) {
          await db.query('UPDATE hub_deliveries SET claim_token = NULL, claimed_until = NULL, due_at = $1 WHERE id = $2 AND claim_token = $3', [now, claimed.id, claimed.token]);
        }
      });
    },

    async deliveryFailed(claimed, failures, retryAt, error) {
      await transaction(async (db) => {
        const held = await changes(
          'UPDATE hub_deliveries SET claim_token = NULL, claimed_until = NULL, due_at = $1, last_error = $2 WHERE id = $3 AND claim_token = $4',
          [retryAt, error, claimed.id, claimed.token],
          db,
        );
        if (held) await db.query('UPDATE hub_subscriptions SET failures = $1 WHERE id = $2', [failures, claimed.subscriptionId]);
      });
    },

    async removeSubscription(claimed, now, denialReason) {
      await transaction(async (db) => {
        const held = await one('SELECT 1 AS ok FROM hub_deliveries WHERE id = $1 AND claim_token = $2 FOR UPDATE', [claimed.id, claimed.token], db);
        if (!held) return;
        await db.query('DELETE FROM hub_subscriptions WHERE id = $1', [claimed.subscriptionId]);
        if (denialReason) {
          await db.query('INSERT INTO hub_denials (topic, callback, reason, due_at, created_at) VALUES ($1, $2, $3, $4, $4)', [claimed.topic, claimed.callback, denialReason, now]);
        }
      });
    },

    async claimDenials(now, limits) {
      const token = randomUUID();
      // A denial notice is one attempt to one callback: its callback stands in for the host.
      const claimed = await rows(
        `${pickedPerHost('hub_denials', 'SELECT id, due_at, claim_token, claimed_until, callback AS host FROM hub_denials')}
         UPDATE hub_denials n SET claim_token = $4, claimed_until = $5 FROM picked WHERE n.id = picked.id
         RETURNING n.id, n.topic, n.callback, n.reason`,
        [now, limits.perHost, limits.limit, token, now + limits.claimMs],
      );
      return claimed.map((row) => denialClaim(row, token)).sort((a, b) => a.id - b.id);
    },

    async denialSent(claimed) {
      await pool.query('DELETE FROM hub_denials WHERE id = $1 AND claim_token = $2', [claimed.id, claimed.token]);
    },

    async sweep(now) {
      await pool.query('DELETE FROM hub_subscriptions WHERE expires_at <= $1', [now]);
      await pool.query(`DELETE FROM hub_contents c WHERE NOT EXISTS (SELECT 1 FROM hub_topics t WHERE t.content_id = c.id)
        AND NOT EXISTS (SELECT 1 FROM hub_deliveries d WHERE d.content_id = c.id)`);
      // A bucket full again says nothing a missing one would not.
      await pool.query('DELETE FROM hub_rate_buckets WHERE at < $1', [now - (rate.burst / rate.perSecond) * 1000]);
    },

    async nextDueAt(now) {
      const due = (t: string) => `CASE WHEN ${t}.claim_token IS NULL THEN ${t}.due_at ELSE ${t}.claimed_until END`;
      const row = await one(
        `SELECT LEAST(
           (SELECT MIN(${due('v')}) FROM hub_verifications v),
           (SELECT MIN(${due('d')}) FROM hub_deliveries d JOIN hub_subscriptions s ON s.id = d.subscription_id WHERE s.expires_at > $1),
           (SELECT MIN(${due('n')}) FROM hub_denials n)) AS next`,
        [now],
      );
      return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
    },

    async subscriptions() {
      return (await rows('SELECT * FROM hub_subscriptions ORDER BY id')).map(subscriptionRow);
    },

    async pendingDeliveryCount() {
      return count('SELECT COUNT(*) AS n FROM hub_deliveries');
    },

    announceWork: () => channel.announce(pool),

    onWork: (wake) => channel.onWork(wake),

    async takeRateToken(key, now) {
      // One statement takes a token when the refilled bucket has one; no row back means refused.
      const refill = `LEAST($2, b.tokens + GREATEST(0, $3 - b.at) / 1000.0 * $4)`;
      const taken = await one(
        `INSERT INTO hub_rate_buckets AS b (key, tokens, at) VALUES ($1, $2 - 1, $3)
         ON CONFLICT (key) DO UPDATE SET tokens = ${refill} - 1, at = GREATEST(b.at, $3) WHERE ${refill} >= 1
         RETURNING tokens`,
        [key, rate.burst, now, rate.perSecond],
      );
      if (taken) return { allowed: true };
      const bucket = await one('SELECT tokens, at FROM hub_rate_buckets WHERE key = $1', [key]);
      const tokens = bucket ? refilledTokens({ tokens: Number(bucket.tokens), at: Number(bucket.at) }, now, rate) : 0;
      return { allowed: false, retryAfterSeconds: retryAfterSeconds(tokens, rate) };
    },

    async problem() {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          pool.query('SELECT 1'),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
          }),
        ]);
        return undefined;
      } catch (error) {
        return `the PostgreSQL store at ${describeDatabaseUrl(url)} does not answer: ${(error as Error).message}`;
      } finally {
        clearTimeout(timer);
      }
    },

    async close() {
      await channel.close();
      await pool.end();
    },
  };
}
