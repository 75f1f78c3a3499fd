import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingLockEntries, type LockFile } from '../../scripts/lock-file.ts';

const root = join(import.meta.dirname, '../..');

describe('missingLockEntries', () => {
  const lock = (packages: LockFile['packages']): LockFile => ({ lockfileVersion: 3, packages });

  it('finds an optional platform binding the lock leaves out', () => {
    const missing = missingLockEntries(
      lock({
        '': { dependencies: { compiler: '^1' } },
        'node_modules/compiler': { optionalDependencies: { 'compiler-linux': '1.0.0', 'compiler-darwin': '1.0.0' } },
        'node_modules/compiler-linux': {},
      }),
    );
    expect(missing).toEqual([{ from: 'node_modules/compiler', name: 'compiler-darwin' }]);
  });

  it('resolves as Node does: own node_modules first, then each ancestor', () => {
    const packages: LockFile['packages'] = {
      '': { devDependencies: { a: '1' } },
      'node_modules/a': { dependencies: { b: '2', c: '1' } },
      'node_modules/a/node_modules/b': { dependencies: { c: '1' }, peerDependencies: { d: '1', e: '1' }, peerDependenciesMeta: { e: { optional: true } } },
      'node_modules/c': {},
      'node_modules/d': {},
    };
    expect(missingLockEntries(lock(packages))).toEqual([]);
    delete packages['node_modules/c'];
    delete packages['node_modules/d'];
    expect(missingLockEntries(lock(packages))).toEqual([
      { from: 'node_modules/a', name: 'c' },
      { from: 'node_modules/a/node_modules/b', name: 'c' },
      { from: 'node_modules/a/node_modules/b', name: 'd' },
    ]);
  });
});

describe("the project's package-lock.json", () => {
  it('lists every dependency of every platform', () => {
    const projectLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as LockFile;
    expect(missingLockEntries(projectLock)).toEqual([]);
  });

  it('is accepted by `npm ci` on a fresh clone (dry run, no node_modules)', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'roof-reviews-ci-'));
    try {
      copyFileSync(join(root, 'package.json'), join(scratch, 'package.json'));
      copyFileSync(join(root, 'package-lock.json'), join(scratch, 'package-lock.json'));
      // --offline: a dry run reads the lock only; it must not depend on the registry.
      const output = execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: scratch,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(output).toMatch(/added \d+ packages/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
