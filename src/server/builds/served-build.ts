/**
 * The build the routes read: the server installs it before it listens and switches
 * it (see build-watcher.ts). Search, sync, MCP and the hub's topics all read the
 * documents of this one object, so they always agree with what GET serves.
 */
import { currentBuild, type LoadedBuild } from './loaded-build.ts';

export function servedBuild(): LoadedBuild {
  return currentBuild();
}

export interface BuildHealth {
  id: string;
  servedSince: string;
  updated: string | null;
  /** The served build's code differs from the code this process runs (it started on another build). */
  restartNeeded: boolean;
}

/** What /api/health says about the served build, for a process whose code is that of the build it started on. */
export function buildHealth(runningCode: string | undefined): BuildHealth {
  const build = servedBuild();
  return {
    id: build.id,
    servedSince: build.servedSince,
    updated: build.manifest.updated,
    // The documents of a newer build are served at once; its code runs only after a restart.
    restartNeeded: runningCode !== undefined && build.codeFingerprint !== undefined && runningCode !== build.codeFingerprint,
  };
}
