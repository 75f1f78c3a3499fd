/**
 * The build this process serves, as one immutable object: its manifest, an open
 * file handle per served file and encoding, and whatever is derived from its
 * documents (the catalog, MCP's content) memoised on the object itself. A switch
 * replaces the object; a response that started keeps the object it started with,
 * so it finishes with that build's bytes even once the directory is pruned. Once no
 * response holds an old build, its files are closed and nothing refers to it.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { MANIFEST_FILE, type StaticManifest } from '../../build/static-manifest.ts';
import { STAMP_FILE } from '../../build/build-layout.ts';

export type Encoding = 'br' | 'gzip';
const ENCODING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

export interface BuildFile {
  fd: number;
  size: number;
}

export interface LoadedBuild {
  /** The directory name under OUT_DIR/builds, or `flat` for a build without that layout. */
  readonly id: string;
  readonly manifest: StaticManifest;
  /** Hash of the sources the build was made from (stamp), to tell when its code differs. */
  readonly codeFingerprint: string | undefined;
  /** When this process started serving it (ISO 8601). */
  readonly servedSince: string;
  /** An open handle on a served file (identity bytes, or a precompressed variant). */
  file(urlPath: string, encoding?: Encoding): BuildFile;
  /** The whole bytes of a served file, read through its handle. */
  bytes(urlPath: string): Buffer;
  /** A served file's UTF-8 text, read through its handle a chunk at a time (see TEXT_CHUNK_BYTES). */
  text(urlPath: string): string;
  /** A value derived from this build, made once and dropped with the build. */
  memo<T>(key: string | symbol, make: () => T): T;
  /** Marks a response in progress; call the returned function when it ends. */
  hold(): () => void;
  /** No longer current: close the files once no response holds them. */
  retire(): void;
}

export class BuildLoadError extends Error {}

/**
 * Under the mmap threshold of glibc's malloc, which it raises up to 32 MiB once a
 * large buffer is freed. A whole-file buffer (/reviews.json: 7 MiB at 5,000
 * reviews) read at each switch then lands in malloc's heap, between longer-lived
 * allocations, and its pages stay resident after it is freed: that heap grew by
 * tens of MiB over 50 switches. Text is read through one buffer of this size.
 */
const TEXT_CHUNK_BYTES = 64 * 1024;

function readStamp(dir: string): { code?: string } {
  try {
    return JSON.parse(readFileSync(path.join(dir, STAMP_FILE), 'utf8')) as { code?: string };
  } catch {
    return {};
  }
}

/** Opens every file of the build's manifest; throws BuildLoadError (closing what it opened) if one is missing. */
export function loadBuild(id: string, dir: string): LoadedBuild {
  let manifest: StaticManifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as StaticManifest;
  } catch (error) {
    throw new BuildLoadError(`Cannot read the manifest of build ${id}: ${(error as Error).message}`);
  }
  const files = new Map<string, BuildFile>();
  const closeAll = () => {
    for (const { fd } of files.values()) closeSync(fd);
    files.clear();
  };
  try {
    for (const [urlPath, entry] of Object.entries(manifest.files)) {
      const variants: (Encoding | undefined)[] = [undefined, ...(Object.keys(entry.encodings) as Encoding[])];
      for (const encoding of variants) {
        const key = encoding ? urlPath + ENCODING_SUFFIX[encoding] : urlPath;
        const fd = openSync(path.join(dir, 'client', key), 'r');
        files.set(key, { fd, size: fstatSync(fd).size });
      }
    }
  } catch (error) {
    closeAll();
    throw new BuildLoadError(`Build ${id} is incomplete: ${(error as Error).message}`);
  }

  const memos = new Map<string | symbol, unknown>();
  let holders = 0;
  let retired = false;

  function file(urlPath: string, encoding?: Encoding): BuildFile {
    const found = files.get(encoding ? urlPath + ENCODING_SUFFIX[encoding] : urlPath);
    if (!found) throw new Error(`Build ${id} has no file ${urlPath}${encoding ? ` (${encoding})` : ''}.`);
    return found;
  }

  /** Fills `target` with the file's bytes from `position`: positional reads, as the handle is shared by every response of this build. */
  function fillAt(urlPath: string, fd: number, target: Buffer, position: number): void {
    for (let done = 0; done < target.length; ) {
      const read = readSync(fd, target, done, target.length - done, position + done);
      if (read === 0) throw new Error(`${urlPath} of build ${id} is shorter than its manifest says.`);
      done += read;
    }
  }

  return {
    id,
    manifest,
    codeFingerprint: readStamp(dir).code,
    servedSince: new Date().toISOString(),
    file,
    bytes(urlPath) {
      const { fd, size } = file(urlPath);
      const buffer = Buffer.allocUnsafe(size);
      fillAt(urlPath, fd, buffer, 0);
      return buffer;
    },
    text(urlPath) {
      const { fd, size } = file(urlPath);
      const chunk = Buffer.allocUnsafeSlow(Math.min(size, TEXT_CHUNK_BYTES));
      const decoder = new StringDecoder('utf8');
      const parts: string[] = [];
      for (let done = 0; done < size; done += chunk.length) {
        const window = chunk.subarray(0, Math.min(chunk.length, size - done));
        fillAt(urlPath, fd, window, done);
        parts.push(decoder.write(window));
      }
      parts.push(decoder.end());
      return parts.join('');
    },
    memo<T>(key: string | symbol, make: () => T): T {
      if (!memos.has(key)) memos.set(key, make());
      return memos.get(key) as T;
    },
    hold() {
      holders++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders--;
        if (retired && holders === 0) closeAll();
      };
    },
    retire() {
      retired = true;
      memos.clear();
      if (holders === 0) closeAll();
    },
  };
}

type Listener = (build: LoadedBuild, previous: LoadedBuild | undefined) => void;
interface Slot {
  current?: LoadedBuild;
  listeners: Set<Listener>;
}
/** The process serves one build at a time. */
const state: Slot = { listeners: new Set() };

/** The build this process serves now (the server installs one before it listens). */
export function currentBuild(): LoadedBuild {
  if (!state.current) throw new Error('No build is loaded: the server installs one before it listens.');
  return state.current;
}

/** Makes `build` the one new responses use, retires the previous one and tells the listeners. */
export function installBuild(build: LoadedBuild): void {
  const previous = state.current;
  state.current = build;
  if (!previous) return;
  previous.retire();
  for (const listener of state.listeners) {
    try {
      listener(build, previous);
    } catch (error) {
      console.error(`A build-switch listener failed: ${(error as Error).message}`);
    }
  }
}

/** Calls `listener` after every switch to another build (not for the first one); returns the unsubscribe. */
export function onBuildSwitch(listener: Listener): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}
