/**
 * The build's cache of prepared reviews (src/domain/review-preparation.ts), kept in
 * OUT_DIR/cache/reviews between builds so a build checks and analyses only the review
 * files that changed.
 *
 * An entry holds one file's result, found by its path and taken only when the digest
 * of its bytes matches. Everything else the result depends on makes up the cache's
 * context: the code (sources, the analyzer's model and vocabulary, lockfile, config),
 * the Node version, business.json and aspects.json. One folder per context; a new
 * context starts empty and the folders of other contexts go when it is saved.
 *
 * Entries are spread over SHARDS files by their path, one a line (entryLine), so a
 * build that changes a few reviews rewrites a few small files, not the whole cache. A shard's first line is the
 * SHA-256 of the rest: a truncated or damaged shard is seen as such and ignored (its
 * reviews are prepared again), never trusted.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PublishedReview } from '../domain/published-review.ts';
import type { PreparedReview } from '../domain/review-preparation.ts';

/** Raised whenever the layout of an entry changes, so files of older builds are not read as this one. */
const FORMAT = 4;
const SHARDS = 256;

/**
 * A published review as the cache holds it: its JSON is the bytes of the shard it was
 * loaded from (never decoded: the build copies them into /reviews.json as they are),
 * or text when it was prepared in this build.
 */
export type CachedPublished = Omit<PublishedReview, 'json'> & { json: string | Buffer };

export interface CachedReview extends Omit<PreparedReview, 'published'> {
  published: CachedPublished | null;
  /** SHA-256 of the file's bytes. */
  digest: string;
  /** The file's stamp when it was last read (read-content.ts): while it is the same, the file is not read. */
  stamp?: string | undefined;
}

/** By the file's path relative to the content folder, e.g. `reviews/r001.md`. */
export type ReviewCache = Map<string, CachedReview>;

export interface CacheContext {
  /** codeFingerprint() of the project. */
  code: string;
  business: string | null;
  aspects: string | null;
}

/** The folder of one context's cache: OUT_DIR/cache/reviews/<hash of the context>. */
export function reviewCacheDir(outDir: string, { code, business, aspects }: CacheContext): string {
  const key = createHash('sha256')
    .update(JSON.stringify({ format: FORMAT, node: process.version, code, business, aspects }))
    .digest('hex');
  return path.join(outDir, 'cache', 'reviews', key);
}

/** Each file's shard, as loaded or computed: a build saves 100,000 entries but hashes only the paths it has not loaded. */
const shardByFile = new Map<string, string>();

function shardOf(file: string): string {
  let shard = shardByFile.get(file);
  if (shard === undefined) {
    shard = (createHash('sha256').update(file).digest().readUInt32BE(0) % SHARDS).toString(16).padStart(2, '0');
    shardByFile.set(file, shard);
  }
  return shard;
}

const digestOf = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A shard's file: its number in two hex digits (shardOf). */
const SHARD_FILE = /^[0-9a-f]{2}\.json$/;
const NEWLINE = 0x0a;
const TAB = 0x09;
/** A shard's first line: the 64 hex digits of its body's digest. */
const DIGEST_LINE = 65;

/**
 * An entry on a line of its own: its path and everything but the published review's
 * JSON as one JSON array, a tab, then that JSON as it is (JSON.stringify writes no tab
 * and no newline), so loading neither unescapes nor decodes a copy of every record.
 */
function entryLine([file, { published, ...rest }]: [string, CachedReview]): string {
  if (!published) return JSON.stringify([file, rest, null]);
  const { json, ...fields } = published;
  return `${JSON.stringify([file, rest, fields])}\t${json.toString()}`;
}

function entryOf(shard: Buffer, start: number, end: number): [string, CachedReview] {
  const tab = shard.indexOf(TAB, start);
  const fieldsEnd = tab === -1 || tab > end ? end : tab;
  const [file, rest, fields] = JSON.parse(shard.toString('utf8', start, fieldsEnd)) as [string, Omit<CachedReview, 'published'>, Omit<PublishedReview, 'json'> | null];
  return [file, { ...rest, published: fields && { ...fields, json: shard.subarray(fieldsEnd + 1, end) } }];
}

/** The entries of one shard file, or none when it is missing, truncated or damaged. */
function readShard(dir: string, shard: string): [string, CachedReview][] {
  try {
    const bytes = readFileSync(path.join(dir, `${shard}.json`));
    if (bytes.length < DIGEST_LINE || bytes[DIGEST_LINE - 1] !== NEWLINE) return [];
    if (bytes.toString('latin1', 0, DIGEST_LINE - 1) !== digestOf(bytes.subarray(DIGEST_LINE))) return [];
    const entries: [string, CachedReview][] = [];
    for (let start = DIGEST_LINE; start < bytes.length; ) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      const entry = entryOf(bytes, start, end);
      // A shard's file holds the entries of that shard only (saveReviewCache).
      shardByFile.set(entry[0], shard);
      entries.push(entry);
      start = end + 1;
    }
    return entries;
  } catch {
    return [];
  }
}

/** Every entry of a context's cache that can be trusted (none when it has no cache yet). */
export function loadReviewCache(dir: string): ReviewCache {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => SHARD_FILE.test(name));
  } catch {
    return new Map();
  }
  return new Map(names.sort().flatMap((name) => readShard(dir, name.slice(0, -'.json'.length))));
}

/**
 * Saves `cache` as the context's whole cache, rewriting only the shards that hold one
 * of `changed` (paths whose entry is new, different or gone). Each shard is replaced
 * in one rename: a killed build leaves every shard old or new, each one whole.
 */
export function saveReviewCache(dir: string, cache: ReviewCache, changed: Iterable<string>): void {
  const shards = new Set([...changed].map(shardOf));
  if (shards.size === 0) return;
  mkdirSync(dir, { recursive: true });
  const byShard = new Map<string, [string, CachedReview][]>([...shards].map((shard) => [shard, []]));
  for (const entry of cache) byShard.get(shardOf(entry[0]))?.push(entry);
  for (const [shard, entries] of byShard) {
    const file = path.join(dir, `${shard}.json`);
    if (entries.length === 0) {
      rmSync(file, { force: true });
      continue;
    }
    const body = entries.map(entryLine).join('\n');
    writeFileSync(`${file}.tmp`, `${digestOf(body)}\n${body}`);
    renameSync(`${file}.tmp`, file);
  }
  // Builds of one OUT_DIR take turns (build-lock.ts): nothing else writes here meanwhile.
  const parent = path.dirname(dir);
  for (const name of readdirSync(parent)) {
    if (name !== path.basename(dir)) rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}
