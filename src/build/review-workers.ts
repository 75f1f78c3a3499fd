/**
 * Prepares review files (check, plain text, mentions, aspects) over worker threads,
 * one per core, while the calling thread waits. Files go out in batches to whichever
 * worker is free, and every result lands at its file's index: the output is the
 * same whatever the scheduling. A single batch is prepared on the calling thread,
 * where starting a worker would cost more than it saves.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Business } from '../domain/content/schema.ts';
import type { ContentFile } from '../domain/content/validate.ts';
import type { VocabularyExtensionInput } from '../domain/insights/aspect-vocabulary-extension.ts';
import { analyzeReviewAspects } from '../domain/insights/review-aspects.ts';
import { reviewPreparer, type PreparedReview } from '../domain/review-preparation.ts';

/** What every worker prepares with (review-worker.ts). */
export interface PrepareSetup {
  business: Business | null;
  extension: VocabularyExtensionInput | null;
  /** Whether to publish: false when business.json or aspects.json has problems. */
  publish: boolean;
}

/** Large enough that messages cost little, small enough that both workers finish together. */
const BATCH = 2_000;
const WORKER = new URL('./review-worker.ts', import.meta.url);

/** The function a worker (review-worker.ts), or the calling thread, prepares each file with. */
export function preparerFor({ business, extension, publish }: PrepareSetup): (file: ContentFile) => PreparedReview {
  return reviewPreparer(business, publish ? analyzeReviewAspects(extension) : null);
}

export async function prepareReviews(files: readonly ContentFile[], setup: PrepareSetup): Promise<PreparedReview[]> {
  if (files.length <= BATCH) return files.map(preparerFor(setup));
  const results = new Array<PreparedReview>(files.length);
  const batches = Math.ceil(files.length / BATCH);
  let next = 0;
  const serve = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      let start = 0;
      const send = () => {
        if (next === batches) return resolve();
        start = next++ * BATCH;
        worker.postMessage(files.slice(start, start + BATCH));
      };
      worker.on('message', (prepared: PreparedReview[]) => {
        prepared.forEach((result, offset) => (results[start + offset] = result));
        send();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`a review worker stopped (exit ${code})`)));
      send();
    });
  const workers = Array.from({ length: Math.min(availableParallelism(), batches) }, () => new Worker(WORKER, { workerData: setup }));
  try {
    await Promise.all(workers.map(serve));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}
