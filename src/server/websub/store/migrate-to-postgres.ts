/**
 * `npm run hub:migrate-to-postgres`: copies a SQLite hub (HUB_DB) into the
 * PostgreSQL store (DATABASE_URL) in one transaction: the subscriptions, what
 * was last distributed per topic (so the first publish after the move sends
 * nothing that subscribers already have), the deliveries still pending and the
 * verifications waiting. Run it with the server stopped; running it again
 * updates the same rows (subscriptions by topic and callback).
 */
import { DatabaseSync } from 'node:sqlite';
import { existsSync } from 'node:fs';
import type pg from 'pg';
import { openPostgresPool } from './postgres-database.ts';

export interface MigrationSummary {
  subscriptions: number;
  topics: number;
  deliveries: number;
  verifications: number;
}

type Row = Record<string, unknown>;

async function insertContent(db: pg.PoolClient, row: Row): Promise<number> {
  const result = await db.query(
    `INSERT INTO hub_contents (topic, hash, content_type, body, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (topic, hash) DO UPDATE SET content_type = excluded.content_type RETURNING id`,
    [row.topic, row.hash, row.content_type, Buffer.from(row.body as Uint8Array), row.created_at],
  );
  return Number(result.rows[0].id);
}

export async function copySqliteHubToPostgres(sqliteFile: string, databaseUrl: string): Promise<MigrationSummary> {
  if (!existsSync(sqliteFile)) throw new Error(`There is no SQLite hub at ${sqliteFile} (HUB_DB) to copy.`);
  const source = new DatabaseSync(sqliteFile, { readOnly: true });
  const pool = await openPostgresPool(databaseUrl, 2);
  const db = await pool.connect();
  try {
    const all = (sql: string) => source.prepare(sql).all() as Row[];
    await db.query('BEGIN');
    const subscriptionIds = new Map<number, number>();
    const subscriptions = all('SELECT * FROM subscriptions ORDER BY id');
    for (const s of subscriptions) {
      const result = await db.query(
        `INSERT INTO hub_subscriptions (topic, callback, callback_host, callback_address, secret, lease_seconds, expires_at, failures, created_at, renewed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (topic, callback) DO UPDATE SET callback_host = excluded.callback_host, callback_address = excluded.callback_address,
           secret = excluded.secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at, failures = excluded.failures,
           renewed_at = excluded.renewed_at
         RETURNING id`,
        [s.topic, s.callback, s.callback_host, s.callback_address, s.secret, s.lease_seconds, s.expires_at, s.failures, s.created_at, s.renewed_at],
      );
      subscriptionIds.set(Number(s.id), Number(result.rows[0].id));
    }
    const contentIds = new Map<number, number>();
    const contentOf = async (id: number) => {
      if (!contentIds.has(id)) {
        const row = source.prepare('SELECT * FROM contents WHERE id = ?').get(id) as Row;
        contentIds.set(id, await insertContent(db, row));
      }
      return contentIds.get(id) as number;
    };
    const topics = all('SELECT * FROM topics');
    for (const t of topics) {
      await db.query(
        `INSERT INTO hub_topics (topic, content_id, published_at) VALUES ($1, $2, $3)
         ON CONFLICT (topic) DO UPDATE SET content_id = excluded.content_id, published_at = excluded.published_at`,
        [t.topic, await contentOf(Number(t.content_id)), t.published_at],
      );
    }
    // Pending deliveries start unclaimed: the SQLite hub is stopped, nobody holds them.
    const deliveries = all('SELECT * FROM deliveries');
    for (const d of deliveries) {
      await db.query(
        `INSERT INTO hub_deliveries (subscription_id, content_id, due_at, last_error, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (subscription_id) DO UPDATE SET content_id = excluded.content_id, due_at = excluded.due_at`,
        [subscriptionIds.get(Number(d.subscription_id)), await contentOf(Number(d.content_id)), d.due_at, d.last_error, d.created_at],
      );
    }
    const verifications = all('SELECT * FROM verifications');
    for (const v of verifications) {
      await db.query(
        `INSERT INTO hub_verifications (topic, callback, callback_host, callback_address, client_key, mode, secret, lease_seconds, revision, due_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (topic, callback) DO UPDATE SET mode = excluded.mode, secret = excluded.secret, lease_seconds = excluded.lease_seconds,
           revision = hub_verifications.revision + 1, due_at = excluded.due_at, claim_token = NULL, claimed_until = NULL`,
        [v.topic, v.callback, v.callback_host, v.callback_address, v.client_key, v.mode, v.secret, v.lease_seconds, v.revision, v.due_at, v.created_at],
      );
    }
    await db.query('COMMIT');
    return { subscriptions: subscriptions.length, topics: topics.length, deliveries: deliveries.length, verifications: verifications.length };
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    db.release();
    await pool.end();
    source.close();
  }
}
