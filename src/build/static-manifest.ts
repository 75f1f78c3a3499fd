/**
 * After Astro has written the static files: precompress them (gzip and brotli) and
 * record, per file, its type, size and a strong ETag derived from its bytes. The
 * embedded server serves from this manifest, so identical rebuilds keep their ETags.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

export interface StaticFileEntry {
  type: string;
  size: number;
  /** Hex digest of the bytes; the served ETag is derived from it. */
  hash: string;
  encodings: { br?: number; gzip?: number };
}

export interface StaticManifest {
  /** Newest review or response date (YYYY-MM-DD): the Last-Modified of every static file. */
  updated: string | null;
  siteUrl: string;
  files: Record<string, StaticFileEntry>;
}

export const MANIFEST_FILE = 'static-manifest.json';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** Paths whose type the extension does not tell. */
const TYPE_BY_PATH: Record<string, string> = {
  '/feed.xml': 'application/atom+xml',
  '/mcp/server-card': 'application/mcp-server-card+json',
  '/.well-known/ai-catalog.json': 'application/ai-catalog+json',
};

const COMPRESSIBLE = new Set(['.html', '.json', '.xml', '.css', '.js', '.mjs', '.svg', '.txt', '.webmanifest']);

export function contentTypeFor(urlPath: string): string {
  return TYPE_BY_PATH[urlPath] ?? TYPES[path.extname(urlPath).toLowerCase()] ?? 'application/octet-stream';
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, `${prefix}/${name}`));
    else if (!name.endsWith('.gz') && !name.endsWith('.br')) out.push(`${prefix}/${name}`);
  }
  return out;
}

/**
 * Brotli's best quality costs seconds per megabyte; above this size quality 8 is nearly
 * as small and many times quicker. /reviews.json at 100,000 reviews (168 MB): 4.76 MB
 * in 1.6 s at quality 8, 4.53 MB in 3.6 s at quality 9, and its compression ends after
 * Astro's rendering when it takes the longer.
 */
const BROTLI_BEST_MAX_BYTES = 256 * 1024;
const BROTLI_LARGE_QUALITY = 8;
const READ_BYTES = 1 << 20;

/** Feeds a compressor a chunk and settles once it has consumed it, so the chunk's buffer can be reused. */
function feed(stream: Transform, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve())));
}

/** A compressor's whole output, once it has been given all its input and ended. */
function output(stream: Transform): Promise<Buffer> {
  const parts: Buffer[] = [];
  stream.on('data', (part: Buffer) => parts.push(part));
  return new Promise((resolve, reject) => {
    stream.once('end', () => resolve(Buffer.concat(parts)));
    stream.once('error', reject);
  });
}

/**
 * A file's digest and, when it is worth compressing, its gzip and brotli encodings:
 * it is read a chunk at a time into one buffer, which this thread hashes while
 * libuv's pool compresses it both ways. The largest document (/reviews.json, 168 MB
 * at 100,000 reviews) is never in memory whole: on a virtual machine, memory a
 * process touches for the first time costs more than reading the file.
 */
async function digestAndCompress(full: string, compressible: boolean): Promise<{ size: number; hash: string; encodings: [Buffer, Buffer] | null }> {
  const fd = openSync(full, 'r');
  try {
    const hint = fstatSync(fd).size;
    let size = 0;
    const hash = createHash('sha256');
    // gzip writes no file name and a zero mtime, so the output is deterministic.
    const compressors = compressible && hint > 0
      ? [createGzip({ level: 9 }), createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: hint > BROTLI_BEST_MAX_BYTES ? BROTLI_LARGE_QUALITY : 11, [constants.BROTLI_PARAM_SIZE_HINT]: hint } })]
      : [];
    const outputs = compressors.map(output);
    const chunk = Buffer.allocUnsafeSlow(Math.min(READ_BYTES, Math.max(hint, 1)));
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const part = chunk.subarray(0, read);
      size += read;
      const fed = Promise.all(compressors.map((stream) => feed(stream, part)));
      hash.update(part);
      await fed;
    }
    for (const stream of compressors) stream.end();
    const [gz, br] = await Promise.all(outputs);
    return { size, hash: hash.digest('hex').slice(0, 32), encodings: gz && br ? [gz, br] : null };
  } finally {
    closeSync(fd);
  }
}

/** One file's entry, its .gz and .br written beside it when they are smaller. */
async function fileEntry(full: string, urlPath: string): Promise<StaticFileEntry> {
  const { size, hash, encodings } = await digestAndCompress(full, COMPRESSIBLE.has(path.extname(urlPath).toLowerCase()));
  const entry: StaticFileEntry = { type: contentTypeFor(urlPath), size, hash, encodings: {} };
  if (encodings) {
    const [gz, br] = encodings;
    if (gz.length < size) {
      writeFileSync(`${full}.gz`, gz);
      entry.encodings.gzip = gz.length;
    }
    if (br.length < size) {
      writeFileSync(`${full}.br`, br);
      entry.encodings.br = br.length;
    }
  }
  return entry;
}

/**
 * The entries of files made before Astro's (the build's largest document, say), by
 * their URL path: they are compressed while Astro renders, and moved into the build
 * with their encodings afterwards.
 */
export async function precompressFiles(files: Record<string, string>): Promise<Record<string, StaticFileEntry>> {
  const entries: Record<string, StaticFileEntry> = {};
  for (const [urlPath, full] of Object.entries(files)) entries[urlPath] = await fileEntry(full, urlPath);
  return entries;
}

/** The paths of a file and of its encodings, the ones that exist. */
export function withEncodings(full: string, entry: StaticFileEntry): string[] {
  return [full, ...(entry.encodings.gzip !== undefined ? [`${full}.gz`] : []), ...(entry.encodings.br !== undefined ? [`${full}.br`] : [])];
}

export interface ManifestInput {
  outDir: string;
  siteUrl: string;
  /** The site's (the newest review or response date), as the build computed it. */
  updated: string | null;
  /** Entries of files already compressed (precompressFiles), taken as they are. */
  precompressed?: Record<string, StaticFileEntry>;
}

export async function writeStaticManifest({ outDir, siteUrl, updated, precompressed = {} }: ManifestInput): Promise<StaticManifest> {
  const clientDir = path.join(outDir, 'client');
  const files: Record<string, StaticFileEntry> = {};
  // All at once: libuv's pool compresses on every core while this thread reads and hashes.
  const paths = listFiles(clientDir);
  const entries = await Promise.all(paths.map((urlPath) => precompressed[urlPath] ?? fileEntry(path.join(clientDir, urlPath), urlPath)));
  paths.forEach((urlPath, index) => (files[urlPath] = entries[index] as StaticFileEntry));
  const manifest: StaticManifest = { updated, siteUrl, files };
  writeFileSync(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}
