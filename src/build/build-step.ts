/**
 * Runs one asynchronous step of a build (the content work, the precompression) in a
 * child process and waits for it, as the build waits for `astro build`: the build
 * stays one synchronous call, the step may use worker threads and libuv's pool, and
 * the memory it used is the system's again before the next step starts.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BuildError } from './build-error.ts';
import type { PrepareInput } from './prepare-content.ts';

/** Imported when run: a step's process loads the modules of that step only. */
export const BUILD_STEPS = {
  prepare: async (input: PrepareInput) => (await import('./prepare-content.ts')).prepareContent(input),
  manifest: async ({ outDir, siteUrl, updated }: { outDir: string; siteUrl: string; updated: string | null }) =>
    (await import('./static-manifest.ts')).writeStaticManifest(outDir, siteUrl, updated),
};
export type BuildStep = keyof typeof BUILD_STEPS;
type Input<S extends BuildStep> = Parameters<(typeof BUILD_STEPS)[S]>[0];
type Output<S extends BuildStep> = Awaited<ReturnType<(typeof BUILD_STEPS)[S]>>;

const MAIN = path.join(import.meta.dirname, 'build-step-main.ts');
const WATCHDOG = path.join(import.meta.dirname, 'parent-watchdog.ts');

/** The step's input goes in on stdin and its result comes back on stdout, both JSON. */
export function runBuildStep<S extends BuildStep>(step: S, input: Input<S>, stdio: 'inherit' | 'pipe' = 'inherit'): Output<S> {
  const child = spawnSync(process.execPath, ['--import', WATCHDOG, MAIN, step], {
    input: JSON.stringify(input),
    stdio: ['pipe', 'pipe', stdio],
    encoding: 'utf8',
    // A report of every problem of a very large content folder is long.
    maxBuffer: 1024 ** 3,
  });
  if (child.status !== 0) {
    const output = stdio === 'pipe' ? `\n${child.stderr ?? ''}` : '';
    throw new BuildError(`The build step "${step}" failed (exit ${child.status ?? child.signal}); nothing was published.${output}`);
  }
  return JSON.parse(child.stdout) as Output<S>;
}
