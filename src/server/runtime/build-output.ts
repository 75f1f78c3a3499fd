/**
 * The build the on-demand routes read. The embedded server installs it (and switches
 * it, see build-watcher.ts); when Astro's bundle serves on its own, the build it was
 * bundled into is loaded on first use. Search, sync, MCP and the hub's topics all read
 * the documents of this one object, so they always agree with what GET serves.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedBuildDir, STAMP_FILE } from '../../build/build-layout.ts';
import { getConfig } from '../config.ts';
import { currentBuild, loadBuild, type LoadedBuild } from './loaded-build.ts';

/** The build folder (with `client/` and `server/`) this code was bundled into, if it was. */
function bundleBuildDir(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'client')) && existsSync(path.join(dir, 'server', 'entry.mjs'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function loadOwnBuild(): LoadedBuild {
  const dir = bundleBuildDir();
  if (dir) return loadBuild(path.basename(path.dirname(dir)) === 'builds' ? path.basename(dir) : 'flat', dir);
  const served = servedBuildDir(getConfig().outDir);
  return loadBuild(served.id, served.dir);
}

export function servedBuild(): LoadedBuild {
  return currentBuild(loadOwnBuild);
}

let runningCode: string | undefined | null = null;

/** The code fingerprint of the build whose bundle runs here (see fingerprint.ts); read once, it cannot change. */
function runningCodeFingerprint(): string | undefined {
  if (runningCode === null) {
    const dir = bundleBuildDir();
    try {
      runningCode = dir ? (JSON.parse(readFileSync(path.join(dir, STAMP_FILE), 'utf8')) as { code?: string }).code : undefined;
    } catch {
      runningCode = undefined;
    }
  }
  return runningCode;
}

/** What /api/health says about the served build. */
export function buildHealth(): { id: string; servedSince: string; updated: string | null; restartNeeded: boolean } {
  const build = servedBuild();
  const running = runningCodeFingerprint();
  return {
    id: build.id,
    servedSince: build.servedSince,
    updated: build.manifest.updated,
    // The documents of a newer build are served at once; its code runs only after a restart.
    restartNeeded: running !== undefined && build.codeFingerprint !== undefined && running !== build.codeFingerprint,
  };
}
