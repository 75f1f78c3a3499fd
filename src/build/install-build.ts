/**
 * Installs a build made elsewhere (CI, a container image) into OUT_DIR and switches to
 * it: the way a server that does not build gets its builds, the first one included. The
 * directory is copied beside the others under a temporary name and renamed into
 * builds/<id> under the build lock, so a running server, a build or a prune never sees
 * half of it; then `current` is switched as a build switches it.
 */
import { cpSync, existsSync, mkdirSync, rmSync, renameSync } from 'node:fs';
import path from 'node:path';
import { BuildError } from './build-error.ts';
import { BUILDS_DIR, buildDir, currentBuildId, isCompleteBuild, pruneBuilds, switchToBuild } from './build-layout.ts';
import { lockBuilds } from './build-lock.ts';
import { linkDependencies } from './build-site.ts';

export interface InstalledBuild {
  id: string;
  /** The build that was current before, if any. */
  previous: string | undefined;
  /** False when OUT_DIR held that build already (its files are left as they are). */
  copied: boolean;
}

/** Copies the complete build directory `source` (a builds/<id> of another OUT_DIR) into OUT_DIR and makes it current. */
export function installBuild(projectRoot: string, outDir: string, source: string): InstalledBuild {
  const from = path.resolve(source);
  if (!isCompleteBuild(from)) {
    throw new BuildError(`${from} is not a complete build: it lacks build-stamp.json or static-manifest.json (copy a whole OUT_DIR/builds/<id> folder).`);
  }
  const id = path.basename(from);
  const release = lockBuilds(outDir);
  try {
    const previous = currentBuildId(outDir);
    const target = buildDir(outDir, id);
    const copied = !isCompleteBuild(target);
    if (copied) {
      mkdirSync(path.join(outDir, BUILDS_DIR), { recursive: true });
      const temp = `${target}.partial-${process.pid}`;
      rmSync(temp, { recursive: true, force: true });
      if (existsSync(target)) rmSync(target, { recursive: true, force: true });
      cpSync(from, temp, { recursive: true, verbatimSymlinks: true });
      renameSync(temp, target);
    }
    linkDependencies(projectRoot, outDir);
    if (previous !== id) switchToBuild(outDir, id);
    pruneBuilds(outDir);
    return { id, previous, copied };
  } finally {
    release();
  }
}
