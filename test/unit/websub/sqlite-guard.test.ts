/** The SQLite file guard: a failing write turns the store unavailable, once logged, until a restart. */
import { describe, expect, it } from 'vitest';
import { HubStoreUnavailable } from '../../../src/server/websub/store/hub-store.ts';
import { guardDatabaseFile } from '../../../src/server/websub/store/sqlite-guard.ts';

const sqliteError = (errcode: number, message: string) => Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode });

describe('guardDatabaseFile', () => {
  it('turns a disk-full or I/O error into HubStoreUnavailable naming the file, logged once, and stays so', () => {
    const lines: string[] = [];
    const guard = guardDatabaseFile(':memory:', (line) => lines.push(line));
    expect(() => guard.failed(sqliteError(13, 'database or disk is full'))).toThrow(HubStoreUnavailable);
    expect(() => guard.failed(sqliteError(10 | (4 << 8), 'disk I/O error'))).toThrow(/disk is full/);
    expect(() => guard.assertUsable()).toThrow(/a write to HUB_DB :memory: failed: the disk is full/);
    expect(guard.problem()).toMatch(/restart the server/);
    expect(lines).toHaveLength(1);
  });

  it('passes other errors through unchanged and stays usable', () => {
    const guard = guardDatabaseFile(':memory:', () => {});
    const constraint = sqliteError(19, 'UNIQUE constraint failed');
    expect(() => guard.failed(constraint)).toThrow(constraint);
    expect(guard.problem()).toBeUndefined();
    expect(() => guard.assertUsable()).not.toThrow();
  });
});
