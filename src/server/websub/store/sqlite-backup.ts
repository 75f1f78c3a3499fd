/**
 * `npm run hub:backup -- FILE`: a consistent copy of the hub's SQLite file made
 * with SQLite's online backup API, safe while the server runs and writes (the
 * copy is one committed state). The copy is checked before it is reported.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
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
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const pages = await backup(db, partial);
    const copy = new DatabaseSync(partial, { readOnly: true });
    try {
      const check = copy.prepare('PRAGMA quick_check').all().map((row) => String(Object.values(row as object)[0]));
      if (check.join() !== 'ok') throw new Error(`the copy failed its check: ${check.slice(0, 3).join('; ')}`);
      const subscriptions = Number((copy.prepare('SELECT COUNT(*) AS n FROM subscriptions').get() as { n: number }).n);
      renameSync(partial, target);
      return { file: target, subscriptions, pages };
    } finally {
      copy.close();
    }
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
}
