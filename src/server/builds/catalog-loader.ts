/**
 * Loads a build's review catalog from its /reviews.json a line (a review) at a time,
 * through the build's own file handle and one 1 MiB buffer: never the 164 MB
 * document at once (100,000 reviews), never one long task. A server switching
 * builds runs it a slice at a time between requests (`loadCatalogSliced`), with
 * the served catalog lending what the two builds share (catalog-builder.ts).
 */
import { readSync } from 'node:fs';
import { catalogSteps } from '../../domain/catalog/catalog-builder.ts';
import type { ReviewCatalog } from '../../domain/catalog/review-catalog.ts';
import { fromByteString, toByteString, type ByteString } from '../../domain/byte-string.ts';
import { isReviewsDatasetEnd, parseReviewsDatasetHead, reviewLineJson } from '../../domain/datasets.ts';
import type { ReviewsDataset } from '../../domain/schemas/datasets.ts';
import { BuildLoadError, type LoadedBuild } from './loaded-build.ts';

const DATASET = '/reviews.json';
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/** The lines of a build file as byte strings, without their newlines. */
function* fileLines(build: LoadedBuild, urlPath: string): Generator<ByteString> {
  const { fd, size } = build.file(urlPath);
  const chunk = Buffer.allocUnsafeSlow(Math.min(CHUNK_BYTES, Math.max(size, 1)));
  let carried = '';
  for (let position = 0; position < size; ) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (read === 0) throw new BuildLoadError(`${urlPath} of build ${build.id} is shorter than its manifest says.`);
    position += read;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, 0); end !== -1 && end < read; end = chunk.indexOf(NEWLINE, start)) {
      yield (carried + chunk.toString('latin1', start, end)) as ByteString;
      carried = '';
      start = end + 1;
    }
    carried += chunk.toString('latin1', start, read);
  }
  if (carried !== '') yield carried as ByteString;
}

/**
 * The catalog of the build's /reviews.json, yielding between steps. A document
 * without a line per review (a build made before they had them) is read whole.
 */
export function* catalogLoadSteps(build: LoadedBuild, previous?: ReviewCatalog): Generator<void, ReviewCatalog> {
  const lines = fileLines(build, DATASET);
  const first = lines.next();
  const head = first.done ? undefined : parseReviewsDatasetHead(fromByteString(first.value));
  if (!head) {
    lines.return(undefined);
    const { reviews, ...whole } = JSON.parse(build.text(DATASET)) as ReviewsDataset;
    return yield* catalogSteps(whole, reviews.map((review) => toByteString(JSON.stringify(review))), previous);
  }
  let ended = false;
  function* reviewLines(): Generator<ByteString> {
    for (const line of lines) {
      if (isReviewsDatasetEnd(line)) {
        ended = true;
        break;
      }
      yield reviewLineJson(line) as ByteString;
    }
  }
  const catalog = yield* catalogSteps(head, reviewLines(), previous);
  if (!ended || !lines.next().done) throw new BuildLoadError(`${DATASET} of build ${build.id} does not end as it should: it is cut short or has more after its end.`);
  return catalog;
}

/** How long a slice may hold the event loop: well under the 250 ms no request may wait. */
const SLICE_MS = 10;

/** Runs steps a slice at a time, letting the event loop answer requests in between. */
export async function runSliced<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const until = performance.now() + SLICE_MS;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      if (performance.now() >= until) break;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
