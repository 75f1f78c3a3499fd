/**
 * Follows OUT_DIR/current while the server runs: when a build or a rollback switches
 * it, the new build is loaded beside the old one (files opened, catalog built a
 * slice at a time between requests, see catalog-loader.ts) and only then
 * installed, a pointer swap, so no request waits and none sees half of each. A
 * build that cannot be loaded is reported once and the served one stays.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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
  prepare?: (build: LoadedBuild) => void;
}

/** How often the link is read: a readlink costs microseconds, and a switch shows within this plus the load. */
const POLL_MS = 250;

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
    prepare?.(build);
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
 * A switch turns a whole build (documents, catalog: tens of MB at thousands of
 * reviews) into garbage at once, and V8 sizes its heap by what was live before:
 * left alone, the heap settles well above what one build needs. One collection
 * shortly after each switch (rare: once per deploy) brings it back. It must be
 * the memory-reducing kind (V8's "last resort": full collections until nothing
 * more is freed, shrinking the young generation and unmapping freed pages). A
 * plain forced gc() does neither: the burst of a switch grows the young
 * generation to its maximum (128 MiB at 5,000 reviews under load) and freed pages
 * stay mapped beyond what heapTotal counts; the server's RSS grew from 328 to
 * 407 MiB over 50 switches with heapTotal flat at about 180 MiB. This one takes
 * heapTotal back to about 50 MiB after each switch. It costs a pause of a few
 * hundred ms (100 to 600 ms at 5,000 reviews on a busy 2-core machine).
 */
let fullCollection: (() => void) | undefined;
let pendingCollection: NodeJS.Timeout | undefined;
let plannedAt = 0;
let lastSwitchAt = 0;
const COLLECT_AFTER_MS = 1_000;

function planCollection(delayMs: number): void {
  plannedAt = performance.now();
  pendingCollection = setTimeout(collectDue, delayMs).unref();
}

/**
 * One collection a second after a switch. Switches back to back (a burst of rollbacks,
 * the bench) share the one already due, so the pauses come at most about once a second,
 * and a last one follows a second after the last switch. Not fewer: native memory
 * (compression streams, TLS, Buffers) is freed only when the collector finalises its JS
 * owners, and with one collection after a burst of 50 small switches under load,
 * malloc's heap grew from 17 to 39 MiB; with one a second it stayed at 17.5 MiB.
 */
function collectDue(): void {
  pendingCollection = undefined;
  fullCollection?.();
  if (lastSwitchAt > plannedAt) planCollection(Math.max(0, COLLECT_AFTER_MS - (performance.now() - lastSwitchAt)));
}

function collectGarbageSoon(): void {
  if (!fullCollection) {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options: object) => void;
    fullCollection = () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }
  lastSwitchAt = performance.now();
  if (!pendingCollection) planCollection(COLLECT_AFTER_MS);
}

/** Polls the link until the returned stop function is called. */
export function watchBuilds(options: BuildWatcherOptions): () => void {
  const refused = new Set<string>();
  let following = false;
  const timer = setInterval(() => {
    // One switch at a time: a build that takes longer than a poll to load is not loaded twice.
    if (following) return;
    following = true;
    void followCurrentBuild(options, refused)
      .then((id) => id && collectGarbageSoon())
      .catch((error: unknown) => options.log(`Following ${options.outDir}/current failed: ${(error as Error).message}`))
      .finally(() => (following = false));
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
