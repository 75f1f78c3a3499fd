import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, existsSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import path from 'node:path';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Every entry under a folder, without following symbolic links: the content check
 * refuses links, FIFOs and devices (read-content.ts), and the fingerprint, taken
 * before it on `npm start`, must not hang on them either. A name that is not UTF-8
 * stays bytes (as text it would name no file), and is hashed, not walked into.
 */
function walk(dir: string, out: (string | Buffer)[]): void {
  if (!existsSync(dir)) return;
  // Dirent types come from the listing (lstat semantics): no stat per file of a large content folder.
  const entries = readdirSync(dir, { encoding: 'buffer', withFileTypes: true }).sort((a, b) => Buffer.compare(a.name, b.name));
  for (const entry of entries) {
    let name: string;
    try {
      name = UTF8.decode(entry.name);
    } catch {
      out.push(Buffer.concat([Buffer.from(`${dir}${path.sep}`), entry.name]));
      continue;
    }
    const full = path.join(dir, name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
}

function codeFiles(projectRoot: string): (string | Buffer)[] {
  const files: (string | Buffer)[] = [];
  walk(path.join(projectRoot, 'src'), files);
  walk(path.join(projectRoot, 'public'), files);
  for (const name of ['astro.config.mjs', 'package-lock.json', 'tsconfig.json']) {
    const full = path.join(projectRoot, name);
    if (existsSync(full)) files.push(full);
  }
  return files;
}

/**
 * A hash of the code a build runs: the sources, the lockfile and the config. A
 * running server compares it to tell whether a new build needs a restart too.
 */
export function codeFingerprint(projectRoot: string): string {
  return hashFiles(createHash('sha256'), projectRoot, codeFiles(projectRoot)).digest('hex');
}

const chunk = Buffer.allocUnsafe(1024 * 1024);

/** The SHA-256 of a file's bytes, read a chunk at a time (a huge file costs time, never memory). */
function fileDigest(fd: number): string {
  const hash = createHash('sha256');
  for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
  return hash.digest('hex');
}

/** A file by the digest of its bytes; a link by its target, anything else by its kind. */
function hashEntry(hash: Hash, file: string | Buffer, digests: ReadonlyMap<string, string>): void {
  const known = typeof file === 'string' ? digests.get(file) : undefined;
  if (known !== undefined) return void hash.update(known);
  const stats = lstatSync(file);
  if (stats.isSymbolicLink()) return void hash.update(Buffer.concat([Buffer.from('link '), readlinkSync(file, { encoding: 'buffer' })]));
  if (!stats.isFile()) return void hash.update(`special ${stats.mode}`);
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    hash.update(fileDigest(fd));
  } finally {
    closeSync(fd);
  }
}

function hashFiles(hash: Hash, projectRoot: string, files: (string | Buffer)[], digests: ReadonlyMap<string, string> = new Map()): Hash {
  for (const file of files) {
    hash.update(`${path.relative(projectRoot, typeof file === 'string' ? file : file.toString('latin1'))}\0`);
    hashEntry(hash, file, digests);
    hash.update('\0');
  }
  return hash;
}

/**
 * A hash of everything a build depends on: the content, the sources, the lockfile
 * and the site URL. `npm start` rebuilds only when it differs from the last build's.
 * `digests` (full path → SHA-256, from readContentFiles) spares reading the content
 * files the build has just read.
 */
export function buildFingerprint(projectRoot: string, contentDir: string, siteUrl: string, digests?: ReadonlyMap<string, string>): string {
  const files: (string | Buffer)[] = [];
  walk(contentDir, files);
  files.push(...codeFiles(projectRoot));
  const hash = createHash('sha256').update(`site ${siteUrl}\ncontent ${contentDir}\n`);
  return hashFiles(hash, projectRoot, files, digests).digest('hex');
}
