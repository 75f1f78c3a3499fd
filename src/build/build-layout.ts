/**
 * Where builds live inside OUT_DIR, and the atomic switch between them:
 *
 *   OUT_DIR/builds/<id>/        one complete build each (client/, server/, manifest, stamp)
 *   OUT_DIR/current             symlink to builds/<id>, replaced by rename(2) only
 *   OUT_DIR/client, server, static-manifest.json, build-stamp.json
 *                               stable symlinks through `current` (what a CDN sync or
 *                               `npm run publish` reads; they never change themselves)
 *   OUT_DIR/cache               Astro's cache, kept between builds (halves a rebuild)
 *
 * A build directory is never written after the switch to it, so a running server can
 * keep serving an old one while a newer one is built beside it.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE } from './static-manifest.ts';

export const BUILDS_DIR = 'builds';
export const CURRENT_LINK = 'current';
/** Written last into a build directory: a directory without it is unfinished. */
export const STAMP_FILE = 'build-stamp.json';
/** The paths outside OUT_DIR/builds that always show the current build. */
const STABLE_LINKS = ['client', 'server', MANIFEST_FILE, STAMP_FILE] as const;
/** Builds kept besides the current one (and any one a running server still runs code from). */
export const KEPT_BUILDS = 3;

/** Sortable by time: `20261125-162515-123-4242` (UTC date, time, milliseconds, builder pid). */
export function newBuildId(now = new Date(), pid = process.pid): string {
  const iso = now.toISOString(); // 2026-11-25T16:25:15.123Z
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}-${pid}`;
}

export function buildDir(outDir: string, id: string): string {
  return path.join(outDir, BUILDS_DIR, id);
}

export function isCompleteBuild(dir: string): boolean {
  return existsSync(path.join(dir, STAMP_FILE)) && existsSync(path.join(dir, MANIFEST_FILE));
}

/** Ids of the complete builds, oldest first. */
export function completeBuilds(outDir: string): string[] {
  const dir = path.join(outDir, BUILDS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((id) => isCompleteBuild(path.join(dir, id)))
    .sort();
}

/** The id the `current` link names, or undefined when OUT_DIR has no switched build. */
export function currentBuildId(outDir: string): string | undefined {
  try {
    return path.basename(readlinkSync(path.join(outDir, CURRENT_LINK)));
  } catch {
    return undefined;
  }
}

/**
 * The directory of the build OUT_DIR serves now: the target of `current`, or OUT_DIR
 * itself for a flat build (one copied from elsewhere, or made before builds/ existed).
 */
export function servedBuildDir(outDir: string): { id: string; dir: string } {
  const id = currentBuildId(outDir);
  return id ? { id, dir: buildDir(outDir, id) } : { id: 'flat', dir: outDir };
}

function replaceWithLink(linkPath: string, target: string): void {
  const temp = `${linkPath}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  symlinkSync(target, temp);
  // rename(2) replaces the old link in one step: a reader sees the old or the new target, never none.
  renameSync(temp, linkPath);
}

function isLinkTo(linkPath: string, target: string): boolean {
  try {
    return lstatSync(linkPath).isSymbolicLink() && readlinkSync(linkPath) === target;
  } catch {
    return false;
  }
}

/** Makes builds/<id> the current build, atomically; the stable links are set up on first use. */
export function switchToBuild(outDir: string, id: string): void {
  replaceWithLink(path.join(outDir, CURRENT_LINK), path.join(BUILDS_DIR, id));
  for (const name of STABLE_LINKS) {
    const linkPath = path.join(outDir, name);
    const target = path.join(CURRENT_LINK, name);
    if (isLinkTo(linkPath, target)) continue;
    // A flat build from before builds/ existed: its files give way to the links.
    if (existsSync(linkPath) && !lstatSync(linkPath).isSymbolicLink()) rmSync(linkPath, { recursive: true, force: true });
    replaceWithLink(linkPath, target);
  }
}

/** The complete build before the current one, if any (what `npm run rollback` switches to). */
export function previousBuild(outDir: string): string | undefined {
  const current = currentBuildId(outDir);
  const builds = completeBuilds(outDir);
  const before = current === undefined ? [] : builds.filter((id) => id < current);
  return before.at(-1);
}

/** A pid's process is still running (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Builds whose server code a running server still executes (it loaded Astro's bundle
 * from there when it started, and imports its chunks lazily): one file per server,
 * OUT_DIR/pins/<pid>, holding the build id. Pins of dead processes do not count.
 */
export function pinnedBuilds(outDir: string): Set<string> {
  const dir = path.join(outDir, 'pins');
  const pinned = new Set<string>();
  if (!existsSync(dir)) return pinned;
  for (const name of readdirSync(dir)) {
    if (isAlive(Number(name))) pinned.add(readFileSync(path.join(dir, name), 'utf8').trim());
    else rmSync(path.join(dir, name), { force: true });
  }
  return pinned;
}

/** Records that this process runs code from build `id` (see pinnedBuilds); returns the unpin. */
export function pinBuild(outDir: string, id: string): () => void {
  const file = path.join(outDir, 'pins', String(process.pid));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${id}\n`);
  return () => rmSync(file, { force: true });
}

/**
 * Removes unfinished build directories (a failed or killed build) and every complete
 * build but the newest KEPT_BUILDS, the current one and pinned ones. Run under the
 * build lock, so no other build is in progress.
 */
export function pruneBuilds(outDir: string, keep: ReadonlySet<string> = new Set()): string[] {
  const dir = path.join(outDir, BUILDS_DIR);
  if (!existsSync(dir)) return [];
  const complete = completeBuilds(outDir);
  const kept = new Set([...complete.slice(-KEPT_BUILDS), ...keep, ...pinnedBuilds(outDir)]);
  const current = currentBuildId(outDir);
  if (current) kept.add(current);
  const removed = readdirSync(dir).filter((id) => !kept.has(id));
  for (const id of removed) rmSync(path.join(dir, id), { recursive: true, force: true });
  return removed;
}

/** Removes a stale temp link left by a killed switch (harmless, but untidy). */
export function removeStaleTempLinks(outDir: string): void {
  if (!existsSync(outDir)) return;
  for (const name of readdirSync(outDir)) {
    const match = /\.(\d+)\.tmp$/.exec(name);
    if (match && !isAlive(Number(match[1]))) unlinkSync(path.join(outDir, name));
  }
}
