/**
 * Loads a build's review catalog from its /reviews.json a line (a review) at a time,
 * through the build's own file handle and one 1 MiB buffer: never the 164 MB
 * document at once (100,000 reviews), never one long task. A server switching
 * builds runs it a slice at a time between requests (run-sliced.ts), with
 * the served catalog lending what the two builds share (catalog-builder.ts).
 */
import { readSync } from 'node:fs';
import { catalogSteps, stringLine, type ReviewLine } from '../../domain/catalog/catalog-builder.ts';
import type { ReviewCatalog } from '../../domain/catalog/review-catalog.ts';
import { fromByteString, toByteString, type ByteString } from '../../domain/byte-string.ts';
import { parseReviewsDatasetHead, REVIEWS_DATASET_END, REVIEW_LINE_END } from '../../domain/datasets.ts';
import type { ReviewsDataset } from '../../domain/schemas/datasets.ts';
import { BuildLoadError, type LoadedBuild } from './loaded-build.ts';

const DATASET = '/reviews.json';
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const DATASET_END = REVIEWS_DATASET_END as ByteString;
const LINE_END = REVIEW_LINE_END.charCodeAt(0);

/**
 * The lines of a build's /reviews.json, without their newlines and a review line's
 * comma, each read in place in the chunk that holds it (a line across two chunks is
 * put together as a string).
 */
function* datasetLines(build: LoadedBuild, urlPath: string): Generator<ReviewLine> {
  const { fd, size } = build.file(urlPath);
  const chunk = Buffer.allocUnsafeSlow(Math.min(CHUNK_BYTES, Math.max(size, 1)));
  let start = 0;
  let end = 0;
  // One object for every line read in place: a line is used before the next is read.
  const inPlace: ReviewLine = {
    // Bounded to the line: equal lengths, then one comparison at its first byte.
    is: (json) => json.length === end - start && (json.length === 0 || chunk.subarray(start, end).indexOf(json, 0, 'latin1') === 0),
    json: () => chunk.toString('latin1', start, end) as ByteString,
  };
  let carried = '';
  for (let position = 0; position < size; ) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (read === 0) throw new BuildLoadError(`${urlPath} of build ${build.id} is shorter than its manifest says.`);
    position += read;
    let next = 0;
    for (let newline = chunk.indexOf(NEWLINE, 0); newline !== -1 && newline < read; newline = chunk.indexOf(NEWLINE, next)) {
      if (carried === '') {
        [start, end] = [next, newline > next && chunk[newline - 1] === LINE_END ? newline - 1 : newline];
        yield inPlace;
      } else {
        const line = carried + chunk.toString('latin1', next, newline);
        yield stringLine((line.endsWith(REVIEW_LINE_END) ? line.slice(0, -1) : line) as ByteString);
        carried = '';
      }
      next = newline + 1;
    }
    carried += chunk.toString('latin1', next, read);
  }
  if (carried !== '') yield stringLine(carried as ByteString);
}

/**
 * The catalog of the build's /reviews.json, yielding between steps. A document
 * without a line per review (a build made before they had them) is read whole.
 */
export function* catalogLoadSteps(build: LoadedBuild, previous?: ReviewCatalog): Generator<void, ReviewCatalog> {
  const lines = datasetLines(build, DATASET);
  const first = lines.next();
  const head = first.done ? undefined : parseReviewsDatasetHead(fromByteString(first.value.json()));
  if (!head) {
    lines.return(undefined);
    const { reviews, ...whole } = JSON.parse(build.text(DATASET)) as ReviewsDataset;
    return yield* catalogSteps(whole, reviews.map((review) => stringLine(toByteString(JSON.stringify(review)))), previous);
  }
  let ended = false;
  function* reviewLines(): Generator<ReviewLine> {
    for (const line of lines) {
      if (line.is(DATASET_END)) {
        ended = true;
        return;
      }
      yield line;
    }
  }
  const catalog = yield* catalogSteps(head, reviewLines(), previous);
  if (!ended || !lines.next().done) throw new BuildLoadError(`${DATASET} of build ${build.id} does not end as it should: it is cut short or has more after its end.`);
  return catalog;
}
