/**
 * The content loader fuzzed: 5,000 generated review files from a fixed seed (valid
 * ones with mutations: hostile YAML values, alias bombs, deep nesting, forbidden
 * characters, huge bodies, odd names, binary noise), loaded from real folders among
 * symlinks, FIFOs, folders and oversized files; a quarter are then checked alone,
 * and the feed of each one accepted is parsed by a strict XML parser. Run in a worker thread
 * with a capped heap and a watchdog: an input that hangs or blows memory fails the
 * test, naming the seed and the batch or file. Figures: docs/hostile-input.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.ts';
import type { FuzzJob, FuzzMessage } from '../support/content-fuzz-worker.ts';

const SEED = 20_261_125;
const FILES = 5_000;
/** No single loader run or check may go this long without progress. */
const WATCHDOG_MS = 20_000;
const HEAP_LIMIT_MIB = 512;

const dir = mkdtempSync(path.join(PROJECT_ROOT, 'tmp', 'content-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runFuzz(job: FuzzJob): Promise<Extract<FuzzMessage, { kind: 'done' }>> {
  const worker = new Worker(new URL('../support/content-fuzz-worker.ts', import.meta.url), {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MIB },
  });
  return new Promise((resolve, reject) => {
    let last = 'start';
    let timer: NodeJS.Timeout;
    const fail = (error: Error) => {
      clearTimeout(timer);
      void worker.terminate();
      reject(error);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(new Error(`no progress for ${WATCHDOG_MS} ms after ${last}: an input hangs`)), WATCHDOG_MS);
    };
    arm();
    worker.on('message', (message: FuzzMessage) => {
      if (message.kind === 'progress') {
        last = message.label;
        arm();
      } else if (message.kind === 'failure') {
        fail(new Error(message.message));
      } else {
        clearTimeout(timer);
        void worker.terminate();
        resolve(message);
      }
    });
    worker.on('error', (error) => fail(new Error(`the fuzz worker died after ${last}: ${error.message}`)));
    worker.on('exit', (code) => code !== 0 && fail(new Error(`the fuzz worker exited with ${code} after ${last}`)));
  });
}

describe('fuzzing the content loader', () => {
  it(`${FILES} generated review files: every problem names its file on one line, no hang, bounded heap, well-formed feeds`, async () => {
    const started = performance.now();
    const result = await runFuzz({
      seed: SEED,
      files: FILES,
      batches: 25,
      alone: 4,
      dir,
      businessJson: readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/small/business.json'), 'utf8'),
    });
    const seconds = (performance.now() - started) / 1000;
    console.info(`content fuzz: ${JSON.stringify(result)} in ${seconds.toFixed(1)} s`);
    expect(result.inputs).toBe(FILES);
    // Both outcomes happened: the mutations left some files valid.
    expect(result.accepted).toBeGreaterThan(result.checkedAlone / 10);
    expect(result.accepted).toBeLessThan(result.checkedAlone * 0.9);
  }, 300_000);
});
