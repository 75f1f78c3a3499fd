/**
 * `npm run hub:backup -- FILE`: a consistent copy of the hub's SQLite file made
 * with SQLite's online backup API, safe while the server runs and writes (the
 * copy is one committed state). The copy is checked before it is reported.
 *
 * The copy holds every subscriber's `hub.secret` in clear, so it is readable by its
 * owner only (0600) from its first byte, and it is one self-contained file: it is
 * switched from WAL to a rollback journal, so no `-wal` or `-shm` file goes with it.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';

export interface BackupSummary {
  file: string;
  subscriptions: number;
  pages: number;
}

export async function backupHubDatabase(source: string, target: string): Promise<BackupSummary> {
  if (!existsSync(source)) throw new Error(`There is no hub database at ${source} (HUB_DB) to back up.`);
  if (existsSync(target)) throw new Error(`${target} exists already; give a new file name (a backup never overwrites).`);
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  const leftovers = [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`];
  for (const file of leftovers) rmSync(file, { force: true });
  // Created empty with owner-only permissions, whatever the umask, before any secret is written to it.
  closeSync(openSync(partial, 'wx', 0o600));
  chmodSync(partial, 0o600);
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const pages = await backup(db, partial);
    let summary: BackupSummary;
    const copy = new DatabaseSync(partial);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
      const check = copy.prepare('PRAGMA quick_check').all().map((row) => String(Object.values(row as object)[0]));
      if (check.join() !== 'ok') throw new Error(`the copy failed its check: ${check.slice(0, 3).join('; ')}`);
      const subscriptions = Number((copy.prepare('SELECT COUNT(*) AS n FROM subscriptions').get() as { n: number }).n);
      summary = { file: target, subscriptions, pages };
    } finally {
      copy.close();
    }
    renameSync(partial, target);
    return summary;
  } finally {
    db.close();
    for (const file of leftovers) rmSync(file, { force: true });
  }
}
