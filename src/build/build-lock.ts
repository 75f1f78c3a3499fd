/**
 * One build at a time per OUT_DIR: builds share Astro's cache and prune each other's
 * leftovers, so a second one refuses to start while the first runs. The lock file
 * holds the builder's pid; a lock whose process is gone (a killed build) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from './build-layout.ts';

export const LOCK_FILE = 'build.lock';
/** The pid of the running `astro build` child (written by parent-watchdog.ts). */
export const CHILD_PID_FILE = 'build.child';

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The Astro child of a killed build may still run (its watchdog waits for its event
 * loop); it would write into the cache this build uses. Stop it first (only if that
 * pid is still an Astro build, not a process that reused the number).
 */
function stopLeftoverChild(outDir: string): void {
  const file = path.join(outDir, CHILD_PID_FILE);
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').trim());
  } catch {
    return;
  }
  if (isAlive(pid) && commandLine(pid).includes('astro')) {
    process.kill(pid, 'SIGKILL');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; i < 50 && isAlive(pid) && commandLine(pid).includes('astro'); i++) Atomics.wait(pause, 0, 0, 100);
  }
  rmSync(file, { force: true });
}

export class BuildLockedError extends Error {}

/** Takes the lock or throws BuildLockedError naming the running build; returns the release. */
export function lockBuilds(outDir: string): () => void {
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (isAlive(holder) && holder !== process.pid) {
        throw new BuildLockedError(`Another build (pid ${holder}) is writing into ${outDir}; wait for it to finish, or stop it.`);
      }
      stopLeftoverChild(outDir);
      rmSync(file, { force: true });
    }
  }
  throw new BuildLockedError(`Could not take the build lock ${file}; remove it if no build is running.`);
}
