/**
 * `npm run build`: check the content (every problem at once), let Astro render into
 * a fresh folder, precompress and index the static files, then swap the folder in.
 * A failed build leaves the previous output untouched and publishes nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatProblems, validateContent } from '../domain/content/validate.ts';
import { buildFingerprint } from './fingerprint.ts';
import { readContentFiles } from './read-content.ts';
import { writeStaticManifest } from './static-manifest.ts';

export interface BuildOptions {
  projectRoot: string;
  contentDir: string;
  siteUrl: string;
  outDir: string;
  /** Astro's own output; quiet for tests. */
  stdio?: 'inherit' | 'pipe';
}

export const STAMP_FILE = 'build-stamp.json';

export class BuildError extends Error {}

export function buildSite(options: BuildOptions): void {
  const { projectRoot, contentDir, siteUrl, outDir } = options;
  const checked = validateContent(readContentFiles(contentDir));
  if (!checked.ok) throw new BuildError(`${formatProblems(checked.problems)}\nNothing was built.`);

  // Taken before Astro runs, so the stamp names the inputs this build read.
  const fingerprint = buildFingerprint(projectRoot, contentDir, siteUrl);
  const nextDir = `${outDir}.next`;
  rmSync(nextDir, { recursive: true, force: true });
  const astro = spawnSync(process.execPath, [path.join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: projectRoot,
    stdio: options.stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
    env: { ...process.env, CONTENT_DIR: contentDir, SITE_URL: siteUrl, OUT_DIR: nextDir, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (astro.status !== 0) {
    rmSync(nextDir, { recursive: true, force: true });
    const output = options.stdio === 'pipe' ? `\n${astro.stdout ?? ''}${astro.stderr ?? ''}` : '';
    throw new BuildError(`astro build failed (exit ${astro.status ?? astro.signal}); nothing was published.${output}`);
  }
  writeStaticManifest(nextDir, siteUrl);
  writeFileSync(path.join(nextDir, STAMP_FILE), `${JSON.stringify({ fingerprint })}\n`);
  if (existsSync(outDir)) rmSync(outDir, { recursive: true, force: true });
  renameSync(nextDir, outDir);
}

function lastFingerprint(outDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(outDir, STAMP_FILE), 'utf8')) as { fingerprint?: string }).fingerprint;
  } catch {
    return undefined;
  }
}

/** Whether OUT_DIR already holds a build of exactly these inputs (content, sources, lockfile, site URL). */
export function isBuildCurrent({ projectRoot, contentDir, siteUrl, outDir }: BuildOptions): boolean {
  return lastFingerprint(outDir) === buildFingerprint(projectRoot, contentDir, siteUrl);
}
