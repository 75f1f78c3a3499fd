/**
 * Build-time I/O: reads a content folder into the plain files that
 * `validateContent` checks. Shared by the Astro build, `npm run check:content`
 * and the benchmarks.
 *
 * A content folder is usually a git checkout, and git stores symbolic links and
 * files of any size: only regular files are read, each up to a byte limit, and
 * anything else (a symlink, a folder, a FIFO, a device, an oversized or non-UTF-8
 * file) becomes a content problem naming it. Symbolic links are refused rather
 * than followed, wherever they point: content lives in the repository, and a link
 * to /dev/zero, to a FIFO or out of the tree is never what the owner meant. The
 * content folder itself (CONTENT_DIR) may be a link: the operator chose it.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, statSync, type BigIntStats, type Stats } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { LIMITS } from '../domain/content/limits.ts';
import type { ContentProblem } from '../domain/content/problem.ts';
import type { ContentFile, ContentFiles } from '../domain/content/validate.ts';

/** `CONTENT_DIR` may be absolute or relative to the project root (the working directory). */
export function resolveContentDir(dir = process.env.CONTENT_DIR || 'content'): string {
  return path.resolve(dir);
}

/** A review file left unread: the caller knew its bytes by its stamp. */
export interface KnownFile {
  path: string;
  digest: string;
}

/**
 * What a file is known by without reading it, as git's index does: its size, its
 * modification and change times to the nanosecond, its inode and device. Writing
 * the file, replacing it or changing its mode changes the change time, which no
 * program can set back.
 */
export type FileStamp = string;

export function fileStamp(stats: BigIntStats): FileStamp {
  return `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}:${stats.dev}`;
}

/** The SHA-256 of a review file's bytes when the caller knows them by this stamp; the file is then not read. */
export type KnownDigest = (file: string, stamp: FileStamp) => string | undefined;

interface ReadOptions {
  /** Full path → SHA-256 of each file read or known, for the build's fingerprint (fingerprint.ts). */
  digests?: Map<string, string> | undefined;
  /** Path relative to the content folder → stamp, of each review file read or known. */
  stamps?: Map<string, FileStamp> | undefined;
  known?: KnownDigest | undefined;
}

type Read = { file: ContentFile } | { known: KnownFile } | { problem: ContentProblem } | { missing: true };

function kindOf(stats: Stats | BigIntStats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

const notRegular = (name: string, stats: Stats | BigIntStats): Read => ({
  problem: {
    file: name,
    field: null,
    message: `is ${kindOf(stats)}; content must be regular files inside the content folder (symbolic links are not followed)`,
  },
});

const tooBig = (name: string, size: string, maxBytes: number): Read => ({
  problem: { file: name, field: null, message: `is ${size} bytes; the limit for this file is ${maxBytes.toLocaleString('en-US')} bytes` },
});

const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** What decoding puts for bytes that are not UTF-8. */
const REPLACEMENT = '\uFFFD';
// Absent on Windows, where there is nothing to pass.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Bytes read into one reused buffer: every file's bytes are decoded into a string before the next is read. */
const scratch = Buffer.allocUnsafe(Math.max(LIMITS.reviewFileBytes, LIMITS.businessFileBytes, LIMITS.editorialFileBytes, LIMITS.aspectsFileBytes) + 1);

/**
 * One file of the content folder, if it is a regular file within the limit. It is
 * opened without following a link and checked again once open (fstat), so a file
 * swapped for a link or a FIFO after the lstat is refused too; at most maxBytes + 1
 * bytes are ever read, so a file that grows meanwhile cannot pass the limit.
 */
function readRegularFile(root: string, name: string, maxBytes: number, { digests, stamps, known }: ReadOptions = {}): Read {
  const full = path.join(root, name);
  let stats: BigIntStats;
  try {
    stats = lstatSync(full, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { problem: { file: name, field: null, message: `cannot be read (${(error as NodeJS.ErrnoException).code})` } };
  }
  if (!stats.isFile()) return notRegular(name, stats);
  if (stats.size > BigInt(maxBytes)) return tooBig(name, stats.size.toLocaleString('en-US'), maxBytes);
  const stamp = fileStamp(stats);
  stamps?.set(name, stamp);
  const digest = known?.(name, stamp);
  if (digest !== undefined) {
    digests?.set(full, digest);
    return { known: { path: name, digest } };
  }
  let fd: number;
  try {
    fd = openSync(full, OPEN_FLAGS);
  } catch (error) {
    return { problem: { file: name, field: null, message: `cannot be opened (${(error as NodeJS.ErrnoException).code})` } };
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return notRegular(name, opened);
    // Up to the size fstat gave (one read, as a rule), never past maxBytes + 1.
    let length = 0;
    do {
      const n = readSync(fd, scratch, length, maxBytes + 1 - length, null);
      if (n === 0) break;
      length += n;
    } while (length < opened.size && length <= maxBytes);
    if (length > maxBytes) return tooBig(name, `over ${maxBytes.toLocaleString('en-US')}`, maxBytes);
    const bytes = scratch.subarray(0, length);
    digests?.set(full, createHash('sha256').update(bytes).digest('hex'));
    if (!isUtf8(bytes)) return { problem: { file: name, field: null, message: 'is not UTF-8 text; save it as UTF-8' } };
    // A byte order mark, which some editors write, is no part of the text (JSON.parse would refuse it).
    const text = bytes.toString('utf8');
    return { file: { path: name, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text } };
  } finally {
    closeSync(fd);
  }
}

/** A review's file: its name ends in .md, whatever the case. */
const isReviewFile = (name: string) => name.toLowerCase().endsWith('.md');

/**
 * The names of the review files (`*.md`) in reviews/, and the problems of reviews/
 * itself or of names that are not UTF-8 (read as text they would name no file).
 */
function reviewNames(root: string): { names: string[]; problems: ContentProblem[] } {
  const dir = path.join(root, 'reviews');
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch {
    return { names: [], problems: [] };
  }
  if (!stats.isDirectory()) {
    const message = `is ${kindOf(stats)}; reviews/ must be a folder inside the content folder (symbolic links are not followed)`;
    return { names: [], problems: [{ file: 'reviews', field: null, message }] };
  }
  const names: string[] = [];
  const problems: ContentProblem[] = [];
  // Listed as text, which is quick; a name that is not UTF-8 comes out holding U+FFFD,
  // and then the folder is listed again as bytes to tell which names those are.
  const listed = readdirSync(dir);
  if (!listed.some((name) => name.includes(REPLACEMENT))) {
    return { names: listed.filter(isReviewFile).sort(), problems };
  }
  for (const raw of readdirSync(dir, { encoding: 'buffer' })) {
    const lossy = raw.toString('utf8');
    if (!isReviewFile(lossy)) continue;
    try {
      names.push(UTF8.decode(raw));
    } catch {
      problems.push({ file: `reviews/${lossy}`, field: null, message: 'has a name that is not UTF-8; rename it with letters, digits and hyphens' });
    }
  }
  return { names: names.sort(), problems };
}

function checkContentDir(root: string): void {
  let rootStats: Stats;
  try {
    rootStats = statSync(root);
  } catch {
    throw new Error(`The content folder ${root} does not exist (CONTENT_DIR).`);
  }
  if (!rootStats.isDirectory()) throw new Error(`The content folder ${root} is not a folder (CONTENT_DIR).`);
}

type SiteFiles = Omit<ContentFiles, 'reviews'> & { unreadable: ContentProblem[] };

/** The content folder's files besides the reviews: business.json, faq.md, summary.md, aspects.json. */
export function readSiteFiles(root: string, digests?: Map<string, string>): SiteFiles {
  checkContentDir(root);
  const unreadable: ContentProblem[] = [];
  const take = (name: string, maxBytes: number): ContentFile | null => {
    const read = readRegularFile(root, name, maxBytes, { digests });
    if ('problem' in read) unreadable.push(read.problem);
    return 'file' in read ? read.file : null;
  };
  return {
    business: take('business.json', LIMITS.businessFileBytes),
    faq: take('faq.md', LIMITS.editorialFileBytes),
    summary: take('summary.md', LIMITS.editorialFileBytes),
    aspects: take('aspects.json', LIMITS.aspectsFileBytes),
    unreadable,
  };
}

/**
 * The review files in file-name order: each read, or known by its stamp (`known`) and
 * left unread; and the problems of the ones that cannot be read as content.
 */
export function readReviewFiles(root: string, options: ReadOptions = {}): { reviews: (ContentFile | KnownFile)[]; problems: ContentProblem[] } {
  checkContentDir(root);
  const { names, problems } = reviewNames(root);
  const reviews: (ContentFile | KnownFile)[] = [];
  for (const name of names) {
    const read = readRegularFile(root, `reviews/${name}`, LIMITS.reviewFileBytes, options);
    if ('problem' in read) problems.push(read.problem);
    else if ('file' in read) reviews.push(read.file);
    else if ('known' in read) reviews.push(read.known);
  }
  return { reviews, problems };
}

/**
 * The content folder's files. Given `digests`, it also records there the SHA-256 of
 * each file read, by its full path, for the build's fingerprint (fingerprint.ts),
 * which then need not read the files a second time.
 */
export function readContentFiles(root: string, digests?: Map<string, string>): ContentFiles {
  // Without `known`, every review file is read.
  const { reviews, problems } = readReviewFiles(root, { digests }) as { reviews: ContentFile[]; problems: ContentProblem[] };
  const site = readSiteFiles(root, digests);
  return { ...site, reviews, unreadable: [...problems, ...site.unreadable] };
}
