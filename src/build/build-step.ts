/**
 * Runs one asynchronous step of a build (the content work, the precompression) in a
 * child process and waits for it, as the build waits for `astro build`: the step may
 * use worker threads and libuv's pool, the memory it used is the system's again when
 * it ends, and two steps can run side by side on two cores.
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { BuildError } from './build-error.ts';
import { childNodeFlags } from './child-memory.ts';
import type { PrepareInput } from './prepare-content.ts';

/** Imported when run: a step's process loads the modules of that step only. */
export const BUILD_STEPS = {
  prepare: async (input: PrepareInput) => (await import('./prepare-content.ts')).prepareContent(input),
  compress: async ({ files }: { files: Record<string, string> }) => (await import('./static-manifest.ts')).precompressFiles(files),
};
export type BuildStep = keyof typeof BUILD_STEPS;
type Input<S extends BuildStep> = Parameters<(typeof BUILD_STEPS)[S]>[0];
type Output<S extends BuildStep> = Awaited<ReturnType<(typeof BUILD_STEPS)[S]>>;

const MAIN = path.join(import.meta.dirname, 'build-step-main.ts');
export const WATCHDOG = path.join(import.meta.dirname, 'parent-watchdog.ts');

/** What a child wrote on its piped stdout and stderr ('' when not piped), and its exit: its code, or the signal that ended it. */
export async function finished(child: ReturnType<typeof spawn>): Promise<{ stdout: string; stderr: string; exit: number | NodeJS.Signals }> {
  const [stdout, stderr, exit] = await Promise.all([
    child.stdout ? text(child.stdout) : '',
    child.stderr ? text(child.stderr) : '',
    new Promise<number | NodeJS.Signals>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => resolve(code ?? signal ?? 1));
    }),
  ]);
  return { stdout, stderr, exit };
}

/** The step's input goes in on stdin and its result comes back on stdout, both JSON. */
export async function runBuildStep<S extends BuildStep>(step: S, input: Input<S>, stdio: 'inherit' | 'pipe' = 'inherit'): Promise<Output<S>> {
  const child = spawn(process.execPath, [...childNodeFlags(), '--import', WATCHDOG, MAIN, step], { stdio: ['pipe', 'pipe', stdio] });
  (child.stdin as Writable).end(JSON.stringify(input));
  const { stdout: out, stderr, exit } = await finished(child);
  if (exit !== 0) {
    const output = stdio === 'pipe' ? `\n${stderr}` : '';
    throw new BuildError(`The build step "${step}" failed (exit ${exit}); nothing was published.${output}`);
  }
  return JSON.parse(out) as Output<S>;
}
