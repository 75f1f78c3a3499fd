/**
 * `npm run build` and `npm run rollback` as the benchmarks run them: the script in a
 * child process (without npm's own), timed from spawn to exit, its process tree's
 * resident memory (the script and Astro) sampled every 50 ms.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sampleRss, treeRssMiB } from './memory.ts';
import { PROJECT_ROOT } from './processes.ts';
import { against, fmt, markdownTable } from './table.ts';

export interface TimedRun {
  seconds: number;
  /** Peak resident memory of the process tree, in MiB. */
  peakTreeMiB: number;
  /** performance.now() when the process exited. */
  exitedAt: number;
}

function timedScript(script: string, env: Record<string, string>): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, script)], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const sampler = sampleRss(() => treeRssMiB(child.pid as number));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => {
      sampler.stop();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      const exitedAt = performance.now();
      sampler.stop();
      if (code !== 0) reject(new Error(`${script} failed (${code ?? signal}):\n${stderr}`));
      else resolve({ seconds: (exitedAt - started) / 1000, peakTreeMiB: sampler.peak() ?? 0, exitedAt });
    });
  });
}

/** `npm run build` of contentDir into outDir. */
export function timedBuild(contentDir: string, outDir: string, siteUrl: string): Promise<TimedRun> {
  return timedScript('scripts/build.ts', { CONTENT_DIR: contentDir, OUT_DIR: outDir, SITE_URL: siteUrl });
}

/** `npm run rollback` in outDir: back to the build before the current one. */
export function timedRollback(outDir: string): Promise<TimedRun> {
  return timedScript('scripts/rollback.ts', { OUT_DIR: outDir });
}

/** Issue 20's goals at 100,000 reviews: 1.5 GB is decimal, 1,430.5 MiB. */
const COLD_SECONDS = 60;
const ONE_MORE_SECONDS = 20;
const PEAK_MIB = 1.5e9 / 2 ** 20;

export function buildReport(cold: TimedRun, oneMore: TimedRun): string {
  const lines = [
    ['cold: empty OUT_DIR, no cache', against(`${fmt(cold.seconds, 1)} s`, `≤ ${COLD_SECONDS} s`, cold.seconds <= COLD_SECONDS), against(`${fmt(cold.peakTreeMiB)} MiB`, '≤ 1.5 GB', cold.peakTreeMiB <= PEAK_MIB)],
    ['one review more: cache kept, server under a light load', against(`${fmt(oneMore.seconds, 1)} s`, `≤ ${ONE_MORE_SECONDS} s`, oneMore.seconds <= ONE_MORE_SECONDS), `${fmt(oneMore.peakTreeMiB)} MiB`],
  ];
  return markdownTable(['build', 'time', 'peak RSS of the process tree'], lines);
}
