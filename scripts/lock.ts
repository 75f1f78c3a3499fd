/**
 * `npm run lock`: completes package-lock.json so that `npm ci` accepts it on any machine.
 * npm can drop other platforms' optional native bindings (such as
 * `@astrojs/compiler-binding-darwin-arm64`) when it rewrites the lock beside an installed
 * node_modules (npm/cli#4828). Rewritten in an empty folder (package.json and the lock,
 * no node_modules), npm adds every platform's binding and keeps the versions already
 * locked. `npm run lock -- --check` only reports. Both exit 1 while something is missing.
 * See docs/dependencies.md.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingLockEntries } from './lock-file.ts';

const root = join(import.meta.dirname, '..');
const lockPath = join(root, 'package-lock.json');

if (process.argv.includes('--help')) {
  console.log(`Usage: npm run lock [-- --check]
  Completes package-lock.json with every platform's optional dependencies, so that
  \`npm ci\` accepts it anywhere. With --check, only lists what is missing.`);
  process.exit(0);
}

if (!process.argv.includes('--check')) {
  const scratch = mkdtempSync(join(tmpdir(), 'roof-reviews-lock-'));
  try {
    copyFileSync(join(root, 'package.json'), join(scratch, 'package.json'));
    copyFileSync(lockPath, join(scratch, 'package-lock.json'));
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: scratch,
      stdio: 'inherit',
    });
    copyFileSync(join(scratch, 'package-lock.json'), lockPath);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const missing = missingLockEntries(JSON.parse(readFileSync(lockPath, 'utf8')));
for (const entry of missing) {
  console.error(`package-lock.json: ${entry.from || 'the project'} needs ${entry.name}, which the lock does not list (run \`npm run lock\`)`);
}
if (missing.length === 0) console.log('package-lock.json lists every dependency, every platform\'s included.');
process.exit(missing.length === 0 ? 0 : 1);
