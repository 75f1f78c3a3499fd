/**
 * Watches the hub's SQLite file while the server runs. SQLite goes on writing
 * to a file that was deleted or replaced under it (into an inode nobody will
 * ever open again), so every store call first checks that the path still leads
 * to the file opened at start; a write that fails (disk full, I/O error,
 * corruption) is caught too. Either way the store turns unavailable until a
 * restart: the hub answers 503, health names the problem, and the log says it once.
 */
import { statSync } from 'node:fs';
import { HubStoreUnavailable } from './hub-store.ts';

/** SQLite's primary result codes that mean the file itself is in trouble (https://sqlite.org/rescode.html). */
const FILE_TROUBLE = new Map([
  [8, 'the file is read-only'], [10, 'a disk I/O error'], [11, 'the file is corrupt'], [13, 'the disk is full'],
  [14, 'the file cannot be opened'], [26, 'the file is not a database'],
]);

export interface FileGuard {
  /** Throws HubStoreUnavailable when the file is gone, replaced or failed before. */
  assertUsable(): void;
  /** Turns an error of a store call into HubStoreUnavailable when it is the file's trouble; rethrows others as they are. */
  failed(error: unknown): never;
  problem(): string | undefined;
}

export function guardDatabaseFile(file: string, log: (line: string) => void): FileGuard {
  const opened = file === ':memory:' ? undefined : statSync(file);
  let problem: string | undefined;
  const restart = `Restore ${file} from a backup (or move it aside to start empty) and restart the server; until then the hub answers 503.`;

  function setProblem(text: string): HubStoreUnavailable {
    if (!problem) {
      problem = text;
      log(`HUB_DB problem: ${text}`);
    }
    return new HubStoreUnavailable(`The WebSub hub cannot use its database: ${problem}`);
  }

  function look(): string | undefined {
    if (problem || !opened) return problem;
    let now;
    try {
      now = statSync(file);
    } catch {
      setProblem(`HUB_DB ${file} was removed while the server ran. ${restart}`);
      return problem;
    }
    if (now.ino !== opened.ino || now.dev !== opened.dev) setProblem(`HUB_DB ${file} was replaced by another file while the server ran. ${restart}`);
    return problem;
  }

  return {
    assertUsable() {
      if (look()) throw new HubStoreUnavailable(`The WebSub hub cannot use its database: ${problem}`);
    },
    failed(error) {
      const code = Number((error as { errcode?: number }).errcode);
      const trouble = FILE_TROUBLE.get(code & 0xff);
      if (trouble) throw setProblem(`a write to HUB_DB ${file} failed: ${trouble} (${(error as Error).message}). ${restart}`);
      throw error;
    },
    problem: look,
  };
}
