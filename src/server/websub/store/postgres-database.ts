/**
 * The hub's PostgreSQL database: a connection pool, and the schema brought to
 * the current version on start by the numbered files in postgres-migrations/,
 * each applied once in its own transaction and recorded in hub_schema_migrations.
 * The whole run holds an advisory lock, so instances starting together take turns
 * (the first migrates, the others find nothing left to do).
 */
import pg from 'pg';
import hub0001 from './postgres-migrations/0001-hub.ts';

/** Append only: a released migration is never edited; a change is a new file and a new entry. */
export const POSTGRES_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  { version: 1, name: '0001-hub', sql: hub0001 },
];

/** The pool, or one of its clients inside a transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Any fixed number, the same in every instance: the key of the migration lock. */
const MIGRATION_LOCK = 7_368_230_001;

/** The URL without its password, for messages. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString().replace(/:@/, '@');
  } catch {
    return 'DATABASE_URL';
  }
}

export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS hub_schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
      const applied = new Set((await client.query('SELECT version FROM hub_schema_migrations')).rows.map((row) => Number(row.version)));
      const newest = Math.max(0, ...applied);
      if (newest > POSTGRES_MIGRATIONS.length) {
        throw new Error(`The hub's PostgreSQL schema is at version ${newest}, newer than this code knows (${POSTGRES_MIGRATIONS.length}); run a newer release.`);
      }
      for (const migration of POSTGRES_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO hub_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`PostgreSQL migration ${migration.name} failed: ${(error as Error).message}`);
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** A pool on DATABASE_URL with the schema migrated; a database that cannot be reached fails here, naming it. */
export async function openPostgresPool(url: string, max = 10): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.error(`[hub] PostgreSQL connection lost: ${error.message}`));
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw new Error(`The hub's PostgreSQL store at ${describeDatabaseUrl(url)} could not be opened: ${(error as Error).message}`);
  }
  return pool;
}
