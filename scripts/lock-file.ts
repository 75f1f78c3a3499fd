/**
 * Completeness of package-lock.json: every dependency of every locked package, optional
 * platform bindings included, must itself be locked where Node's resolution would find
 * it. `npm ci` refuses a lock that misses one ("package.json and package-lock.json … are
 * not in sync"), even when the missing package is for another platform.
 */

interface LockedPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  link?: boolean;
}

export interface LockFile {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
}

export interface MissingEntry {
  /** The lock key of the package that needs it ("" is the project itself). */
  from: string;
  name: string;
}

/** Where Node looks for `name` from the package at `key`: its own node_modules, then each ancestor's. */
function candidates(key: string, name: string): string[] {
  const found: string[] = [];
  let base = key;
  for (;;) {
    found.push(base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`);
    if (base === '') return found;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** The dependencies the lock must answer for a package: run-time and optional ones; dev ones only for the project; required peers. */
function needs(key: string, locked: LockedPackage): string[] {
  const names = new Set([...Object.keys(locked.dependencies ?? {}), ...Object.keys(locked.optionalDependencies ?? {})]);
  if (key === '') for (const name of Object.keys(locked.devDependencies ?? {})) names.add(name);
  for (const name of Object.keys(locked.peerDependencies ?? {})) {
    if (!locked.peerDependenciesMeta?.[name]?.optional) names.add(name);
  }
  return [...names].sort();
}

export function missingLockEntries(lock: LockFile): MissingEntry[] {
  if (lock.lockfileVersion < 2 || typeof lock.packages !== 'object') {
    return [{ from: '', name: `(lockfileVersion ${lock.lockfileVersion}: npm 7 or later writes version 3)` }];
  }
  const missing: MissingEntry[] = [];
  for (const [key, locked] of Object.entries(lock.packages)) {
    if (locked.link) continue;
    for (const name of needs(key, locked)) {
      if (!candidates(key, name).some((candidate) => candidate in lock.packages)) missing.push({ from: key, name });
    }
  }
  return missing;
}
