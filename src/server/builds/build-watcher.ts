/**
 * Follows OUT_DIR/current while the server runs: when a build or a rollback switches
 * it, the new build is loaded beside the old one (files opened, catalog built a
 * slice at a time between requests, see catalog-loader.ts) and only then
 * installed, a pointer swap, so no request waits and none sees half of each. A
 * build that cannot be loaded is reported once and the served one stays.
 */
import { buildDir, currentBuildId } from '../../build/build-layout.ts';
import { servedBuild } from './served-build.ts';
import { catalogOf, prepareCatalog } from './served-catalog.ts';
import { installBuild, loadBuild, type LoadedBuild } from './loaded-build.ts';

export interface BuildWatcherOptions {
  outDir: string;
  /** The site this server serves; a build for another one is not switched to. */
  siteUrl: string;
  log: (line: string) => void;
  /** What else the routes derive from a build, made before it is installed so that no request waits for it. */
  prepare?: (build: LoadedBuild) => void | Promise<void>;
}

/** How often the link is read: a readlink costs microseconds, and a switch shows within this plus the load. */
const POLL_MS = 100;

/** Switches to the build `current` names now, if it is another one; the new build's id, if it switched. */
export async function followCurrentBuild({ outDir, siteUrl, log, prepare }: BuildWatcherOptions, refused: Set<string>): Promise<string | undefined> {
  const id = currentBuildId(outDir);
  const served = servedBuild();
  if (id === undefined || id === served.id || refused.has(id)) return undefined;
  let build;
  try {
    build = loadBuild(id, buildDir(outDir, id));
  } catch (error) {
    refused.add(id);
    log(`Cannot switch to build ${id}, still serving ${served.id}: ${(error as Error).message}`);
    return undefined;
  }
  if (build.manifest.siteUrl !== siteUrl) {
    build.retire();
    refused.add(id);
    log(`Not switching to build ${id}: it was built for ${build.manifest.siteUrl}, this server serves ${siteUrl}; still serving ${served.id}.`);
    return undefined;
  }
  // The served build is held meanwhile: its catalog lends the new one what they share.
  const release = served.hold();
  try {
    await prepareCatalog(build, catalogOf(served));
    await prepare?.(build);
  } catch (error) {
    build.retire();
    refused.add(id);
    log(`Cannot switch to build ${id}, still serving ${served.id}: ${(error as Error).message}`);
    return undefined;
  } finally {
    release();
  }
  installBuild(build);
  const codeNote = build.codeFingerprint !== served.codeFingerprint ? ' Its code differs from the code this server runs: restart to run it.' : '';
  log(`Now serving build ${id} (was ${served.id}).${codeNote}`);
  return id;
}

/**
 * Follows OUT_DIR/current. No collection is forced after a switch: a full collection of the heap at 100,000
 * reviews holds the event loop 250 ms to 2 s (a "last resort" one, which also gives
 * memory back, the longest), past what any request may wait. A switch leaves little
 * garbage now (the new catalog borrows every unchanged review from the old one), and
 * V8's own collections, incremental and concurrent, reclaim it (docs/deploy.md).
 *
 * Polls the link until the returned stop function is called.
 */
export function watchBuilds(options: BuildWatcherOptions): () => void {
  const refused = new Set<string>();
  let following = false;
  const timer = setInterval(() => {
    // One switch at a time: a build that takes longer than a poll to load is not loaded twice.
    if (following) return;
    following = true;
    void followCurrentBuild(options, refused)
      .catch((error: unknown) => options.log(`Following ${options.outDir}/current failed: ${(error as Error).message}`))
      .finally(() => (following = false));
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
