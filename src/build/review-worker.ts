/** A worker thread of review-workers.ts: prepares each batch of review files it is sent. */
import { parentPort, workerData } from 'node:worker_threads';
import type { ContentFile } from '../domain/content/validate.ts';
import { preparerFor, type PrepareSetup } from './review-workers.ts';

const prepare = preparerFor(workerData as PrepareSetup);
const port = parentPort;
if (!port) throw new Error('review-worker.ts runs as a worker thread (review-workers.ts)');
port.on('message', (files: ContentFile[]) => port.postMessage(files.map(prepare)));
