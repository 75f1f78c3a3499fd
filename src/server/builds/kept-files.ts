/**
 * The bytes of a build's files kept in memory once read, up to a budget per build, so
 * that a file served again is written from memory in one go, as a bare server writes
 * it. Streamed from its handle, a file is read 64 KiB at a time, each read handed to a
 * libuv worker thread and back: /reviews.json as brotli (4.7 MB at 100,000 reviews)
 * took 12 to 40 ms of CPU per request, where the same bytes from memory take about
 * 2 ms. Larger reads cost more, not less: a buffer of 128 KiB or more is mapped and
 * unmapped by malloc each time (memory-settings.ts).
 *
 * A build's files never change once built, so the kept bytes are the file's; they are
 * kept in the build's memo, so a switch drops them with the build. A build has few
 * files (documents, feeds, sitemaps, a few pages; the pages of reviews are rendered),
 * so at most one read per file is in flight, each of a file that fits.
 */
import { read } from 'node:fs';
import { sizedCache, type SizedCache } from '../http/answer-cache.ts';
import type { BuildFile, Encoding, LoadedBuild } from './loaded-build.ts';

/** Bytes kept per build, least recently served out first. */
export const KEPT_FILES_BYTES = 32 * 1024 * 1024;
/** A file over this is always streamed: it would push out many smaller ones for itself. */
export const KEPT_FILE_MAX_BYTES = 8 * 1024 * 1024;

interface KeptFiles {
  readonly bytes: SizedCache<Buffer>;
  /** Files being read to be kept: one read each, whatever the requests meanwhile. */
  readonly reading: Set<string>;
}

const KEPT_FILES = Symbol('kept-files');

const keptFilesOf = (build: LoadedBuild) =>
  build.memo<KeptFiles>(KEPT_FILES, () => ({ bytes: sizedCache<Buffer>(KEPT_FILES_BYTES, (bytes) => bytes.length), reading: new Set() }));

/** The whole file through positional reads (its handle is shared by every response of the build). */
function readWhole({ fd, size }: BuildFile, done: (error: Error | null, bytes?: Buffer) => void): void {
  const bytes = Buffer.allocUnsafeSlow(size);
  const readFrom = (position: number): void => {
    if (position === size) return done(null, bytes);
    read(fd, bytes, position, size - position, position, (error, count) => {
      if (error) return done(error);
      if (count === 0) return done(new Error(`The file is shorter (${position} bytes) than its manifest says (${size}).`));
      readFrom(position + count);
    });
  };
  readFrom(0);
}

/** A file's key: its path, and its encoding after a NUL (which no path holds). */
const keyOf = (urlPath: string, encoding: Encoding | undefined) => (encoding ? `${urlPath}\0${encoding}` : urlPath);

/** What the build keeps of its file at `urlPath` in `encoding`, without reading it. */
export const keptBytes = (build: LoadedBuild, urlPath: string, encoding?: Encoding): Buffer | undefined =>
  keptFilesOf(build).bytes.get(keyOf(urlPath, encoding));

/**
 * The bytes of the build's file at `urlPath` in `encoding`, when they are kept.
 * Otherwise undefined, and a file that fits starts being read whole in the background,
 * to be kept for the next requests; the build is held until that read ends.
 */
export function keptFile(build: LoadedBuild, urlPath: string, encoding: Encoding | undefined): Buffer | undefined {
  const kept = keptFilesOf(build);
  const key = keyOf(urlPath, encoding);
  const bytes = kept.bytes.get(key);
  if (bytes !== undefined || kept.reading.has(key)) return bytes;
  const file = build.file(urlPath, encoding);
  if (file.size > KEPT_FILE_MAX_BYTES) return undefined;
  kept.reading.add(key);
  const release = build.hold();
  readWhole(file, (error, whole) => {
    kept.reading.delete(key);
    release();
    // A read that failed is not kept: the stream of a later request meets the fault and cuts its response.
    if (error === null && whole !== undefined) kept.bytes.set(key, whole);
  });
  return undefined;
}
