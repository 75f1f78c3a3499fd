/**
 * The hub's SQLite file: opened in WAL mode (readers never wait for the
 * worker's writes; a killed process loses no committed transaction) and brought
 * to the current schema by numbered migrations recorded in `user_version`.
 * Only this folder writes SQL.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Append only: a released migration is never edited, a change is a new entry. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE subscriptions (
    id INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    secret TEXT,
    lease_seconds INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    renewed_at INTEGER NOT NULL,
    UNIQUE (topic, callback)
  );
  CREATE INDEX subscriptions_by_expiry ON subscriptions (expires_at);
  CREATE INDEX subscriptions_by_host ON subscriptions (callback_host);

  -- One pending intent per (topic, callback): a newer request replaces an older
  -- one and bumps the revision, so a verification already in flight for the
  -- older request cannot apply it.
  CREATE TABLE verifications (
    id INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    callback_host TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
    secret TEXT,
    lease_seconds INTEGER NOT NULL,
    revision INTEGER NOT NULL DEFAULT 1,
    due_at INTEGER NOT NULL,
    claim_token TEXT,
    claimed_until INTEGER,
    created_at INTEGER NOT NULL,
    UNIQUE (topic, callback)
  );
  CREATE INDEX verifications_by_host ON verifications (callback_host);

  CREATE TABLE contents (
    id INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    hash TEXT NOT NULL,
    content_type TEXT NOT NULL,
    body BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (topic, hash)
  );

  -- What the hub last distributed for each topic.
  CREATE TABLE topics (
    topic TEXT PRIMARY KEY,
    content_id INTEGER NOT NULL REFERENCES contents (id),
    published_at INTEGER NOT NULL
  );

  -- At most one pending delivery per subscription: newer content replaces an
  -- undelivered older one in place, keeping the retry schedule and any claim.
  CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY,
    subscription_id INTEGER NOT NULL UNIQUE REFERENCES subscriptions (id) ON DELETE CASCADE,
    content_id INTEGER NOT NULL REFERENCES contents (id),
    due_at INTEGER NOT NULL,
    claim_token TEXT,
    claimed_until INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX deliveries_by_due ON deliveries (due_at);
  CREATE INDEX deliveries_by_content ON deliveries (content_id);

  -- "You were unsubscribed" notices still to send.
  CREATE TABLE denials (
    id INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    callback TEXT NOT NULL,
    reason TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    claim_token TEXT,
    claimed_until INTEGER,
    created_at INTEGER NOT NULL
  );
  `,
  // Per-address subscription cap and per-client pending verifications (hostile-input review).
  `
  ALTER TABLE subscriptions ADD COLUMN callback_address TEXT NOT NULL DEFAULT '';
  CREATE INDEX subscriptions_by_address ON subscriptions (callback_address);
  ALTER TABLE verifications ADD COLUMN callback_address TEXT NOT NULL DEFAULT '';
  ALTER TABLE verifications ADD COLUMN client_key TEXT NOT NULL DEFAULT '';
  CREATE INDEX verifications_by_address ON verifications (callback_address);
  CREATE INDEX verifications_by_client ON verifications (client_key);
  `,
];

function migrate(db: DatabaseSync, file: string): void {
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (version > MIGRATIONS.length) {
    throw new Error(`HUB_DB ${file} has schema version ${version}, newer than this code knows (${MIGRATIONS.length}); run a newer release.`);
  }
  for (let next = version; next < MIGRATIONS.length; next++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(MIGRATIONS[next] as string);
      db.exec(`PRAGMA user_version = ${next + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** The file beside HUB_DB that says a hub database was created here, so a missing one is noticed. */
export const markerFile = (file: string) => `${file}.marker`;

const REMEDY = 'Restore a backup (npm run hub:backup makes one; docs/websub.md, "Backup and restore") or move the file aside to start with an empty hub.';

/** The database cannot be used as it is; the message names the file and what to do. */
export class HubDatabaseError extends Error {}

function refuseMissing(file: string): never {
  const marker = markerFile(file);
  let since = '';
  try {
    since = ` on ${readFileSync(marker, 'utf8').split('\n')[1]?.trim() ?? 'an earlier start'}`;
  } catch {
    // The marker's text is only for the message.
  }
  throw new HubDatabaseError(
    `HUB_DB ${file} is missing or empty, but a hub database was created there${since} (${marker} says so): its subscriptions would be lost silently. ` +
      `Restore a backup to ${file}, or delete ${marker} to start with an empty hub.`,
  );
}

/**
 * Opens (creating the folder and the file if needed) and migrates; `:memory:` for tests.
 * Refuses a file that is not a sound SQLite database, and a missing file where the
 * marker says one existed, rather than starting an empty hub in its place.
 */
export function openHubDatabase(file: string): DatabaseSync {
  if (file === ':memory:') return configure(new DatabaseSync(file), file);
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // An emptied file would otherwise pass for a new database.
  const existed = existsSync(file) && statSync(file).size > 0;
  if (!existed && existsSync(markerFile(file))) refuseMissing(file);
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    if (existed) {
      const check = db.prepare('PRAGMA quick_check').all().map((row) => String(Object.values(row as object)[0]));
      if (check.join() !== 'ok') throw new Error(check.slice(0, 3).join('; '));
    }
    configure(db, file);
  } catch (error) {
    if (db?.isOpen) db.close();
    if (error instanceof HubDatabaseError) throw error;
    throw new HubDatabaseError(`HUB_DB ${file} is corrupt or unreadable (${(error as Error).message}). ${REMEDY}`);
  }
  if (!existsSync(markerFile(file))) {
    writeFileSync(markerFile(file), `A hub database was created beside this file, and the hub refuses to start without it.\n${new Date().toISOString()}\n`);
  }
  return db;
}

function configure(db: DatabaseSync, file: string): DatabaseSync {
  // The busy timeout comes first: another process may be opening the same file.
  // NORMAL is durable against a crash of the process in WAL mode; only a power loss can
  // undo the last commits, which at worst repeats a delivery.
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  migrate(db, file);
  return db;
}
