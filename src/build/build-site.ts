/**
 * `npm run build`: check the content (every problem at once) and publish its reviews,
 * reusing the cached work of unchanged files, into /reviews.json (prepare-content.ts);
 * let Astro render into a new build directory while /reviews.json is compressed beside
 * it on the other core, move it in, precompress and index the other static files, then
 * switch OUT_DIR/current to it in one rename (see build-layout.ts). A failed or killed
 * build leaves the served build untouched and publishes nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import path from 'node:path';
import { formatProblems } from '../domain/content/validate.ts';
import { BuildError } from './build-error.ts';
import { buildDir, newBuildId, pruneBuilds, removeStaleTempLinks, STAMP_FILE, switchToBuild } from './build-layout.ts';
import { CHILD_PID_FILE, lockBuilds } from './build-lock.ts';
import { finished, runBuildStep, WATCHDOG } from './build-step.ts';
import { astroEnv, childNodeFlags } from './child-memory.ts';
import { buildFingerprint } from './fingerprint.ts';
import { PREPARED_SITE_ENV, PREPARED_SITE_ON_STDIN, type PreparedSite } from './prepared-site.ts';
import { withEncodings, writeStaticManifest } from './static-manifest.ts';

export interface BuildOptions {
  projectRoot: string;
  contentDir: string;
  siteUrl: string;
  outDir: string;
  /** Astro's own output and the build's progress; quiet for tests. */
  stdio?: 'inherit' | 'pipe';
}

// Where the build's callers have always found it.
export { BuildError };

/** /reviews.json and its encodings until they move into the build's client/. */
const DOCUMENTS_DIR = path.join('cache', 'documents');
const REVIEWS_DOCUMENT = '/reviews.json';

/**
 * Astro's server bundle imports packages by name, which Node resolves from the
 * bundle's folder upwards. Inside the project that finds its node_modules; an
 * OUT_DIR elsewhere gets a link to it.
 */
export function linkDependencies(projectRoot: string, outDir: string): void {
  const relative = path.relative(projectRoot, outDir);
  if (!relative.startsWith('..') && !path.isAbsolute(relative)) return;
  const link = path.join(outDir, 'node_modules');
  if (existsSync(link)) return;
  const modules = path.join(projectRoot, 'node_modules');
  if (!existsSync(modules)) throw new BuildError(`${modules} is missing; run npm install first.`);
  symlinkSync(modules, link);
}

interface AstroRun {
  /** Hands Astro the site it renders; until then it bundles the server and waits. */
  give(site: PreparedSite): void;
  /** Stops it: the build gives up. */
  stop(): void;
  /** Settles when it exits: rejects unless it rendered every route. */
  done: Promise<void>;
}

/**
 * Starts `astro build` at once: bundling the server takes seconds that need nothing of
 * the content, so it runs while the content step works, and the pages wait for the
 * site on Astro's stdin (load-site.ts).
 */
function startAstro(options: BuildOptions, dir: string): AstroRun {
  const { projectRoot, contentDir, siteUrl, outDir } = options;
  const astro = spawn(process.execPath, [...childNodeFlags(), '--import', WATCHDOG, path.join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: projectRoot,
    stdio: ['pipe', options.stdio === 'pipe' ? 'pipe' : 'inherit', options.stdio === 'pipe' ? 'pipe' : 'inherit'],
    env: {
      ...astroEnv(),
      CONTENT_DIR: contentDir,
      SITE_URL: siteUrl,
      OUT_DIR: dir,
      [PREPARED_SITE_ENV]: PREPARED_SITE_ON_STDIN,
      ASTRO_CACHE_DIR: path.join(outDir, 'cache'),
      BUILD_CHILD_PID_FILE: path.join(outDir, CHILD_PID_FILE),
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  const stdin = astro.stdin as Writable;
  // An Astro that has failed already reads nothing: its exit says why.
  stdin.on('error', () => {});
  const done = finished(astro).then(({ stdout, stderr, exit }) => {
    rmSync(path.join(outDir, CHILD_PID_FILE), { force: true });
    if (exit === 0) return;
    const output = options.stdio === 'pipe' ? `\n${stdout}${stderr}` : '';
    throw new BuildError(`astro build failed (exit ${exit}); nothing was published.${output}`);
  });
  return { give: (site) => stdin.end(JSON.stringify(site)), stop: () => astro.kill('SIGKILL'), done };
}

/** Builds and switches to the new build; resolves to its id. */
export async function buildSite(options: BuildOptions): Promise<string> {
  const { projectRoot, contentDir, siteUrl, outDir } = options;
  const release = lockBuilds(outDir);
  const id = newBuildId();
  const dir = buildDir(outDir, id);
  const documentsDir = path.join(outDir, DOCUMENTS_DIR);
  const reviewsFile = path.join(documentsDir, REVIEWS_DOCUMENT);
  let astro: AstroRun | undefined;
  try {
    removeStaleTempLinks(outDir);
    // Leftovers of failed or killed builds go before this one starts, so they never pile up.
    pruneBuilds(outDir);
    rmSync(documentsDir, { recursive: true, force: true });
    mkdirSync(documentsDir, { recursive: true });
    mkdirSync(dir, { recursive: true });
    linkDependencies(projectRoot, outDir);
    astro = startAstro(options, dir);
    const prepared = await runBuildStep('prepare', { projectRoot, contentDir, outDir, siteUrl, reviewsFile }, options.stdio);
    if (!prepared.ok) throw new BuildError(`${formatProblems(prepared.problems)}\nNothing was built.`);
    const { files, cached, prepared: fresh, unread } = prepared.reviews;
    if (options.stdio !== 'pipe') console.log(`${files} review files: ${cached} from the cache, ${fresh} checked and analysed; ${unread} unchanged, not read again.`);
    astro.give(prepared.site);
    // Both are awaited even when one fails, so no step still writes once the build has given up.
    const [rendered, compressed] = await Promise.allSettled([
      astro.done,
      runBuildStep('compress', { files: { [REVIEWS_DOCUMENT]: reviewsFile } }, options.stdio),
    ]);
    astro = undefined;
    if (rendered.status === 'rejected') throw rendered.reason;
    if (compressed.status === 'rejected') throw compressed.reason;
    const precompressed = compressed.value;
    for (const [urlPath, entry] of Object.entries(precompressed)) {
      for (const file of withEncodings(path.join(documentsDir, urlPath), entry)) {
        renameSync(file, path.join(dir, 'client', path.relative(documentsDir, file)));
      }
    }
    // In this process: every file is streamed (static-manifest.ts), so it takes a few megabytes, less than a process costs to start.
    await writeStaticManifest({ outDir: dir, siteUrl, updated: prepared.updated, precompressed });
    // The stamp is written last: it marks the directory as a complete build.
    writeFileSync(path.join(dir, STAMP_FILE), `${JSON.stringify({ fingerprint: prepared.fingerprint, code: prepared.code })}\n`);
    switchToBuild(outDir, id);
    pruneBuilds(outDir);
    return id;
  } catch (error) {
    if (astro) {
      astro.stop();
      await astro.done.catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(documentsDir, { recursive: true, force: true });
    release();
  }
}

function lastFingerprint(outDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(outDir, STAMP_FILE), 'utf8')) as { fingerprint?: string }).fingerprint;
  } catch {
    return undefined;
  }
}

/** Whether OUT_DIR already serves a build of exactly these inputs (content, sources, lockfile, site URL). */
export function isBuildCurrent({ projectRoot, contentDir, siteUrl, outDir }: BuildOptions): boolean {
  return lastFingerprint(outDir) === buildFingerprint(projectRoot, contentDir, siteUrl);
}
