/**
 * After Astro has written the static files: precompress them (gzip and brotli) and
 * record, per file, its type, size and a strong ETag derived from its bytes. The
 * embedded server serves from this manifest, so identical rebuilds keep their ETags.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

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

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, `${prefix}/${name}`));
    else if (!name.endsWith('.gz') && !name.endsWith('.br')) out.push(`${prefix}/${name}`);
  }
  return out;
}

/** Brotli's best quality costs seconds per megabyte; above this size quality 9 is nearly as small and many times quicker. */
const BROTLI_BEST_MAX_BYTES = 256 * 1024;

/** A file's gzip and brotli encodings, made at once on libuv's threadpool (the largest document takes most of the time). */
function compress(bytes: Buffer): Promise<[Buffer, Buffer]> {
  return Promise.all([
    // gzip writes no file name and a zero mtime, so the output is deterministic.
    gzipAsync(bytes, { level: 9 }),
    brotliAsync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: bytes.length > BROTLI_BEST_MAX_BYTES ? 9 : 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  ]);
}

/** One file's entry, its .gz and .br written beside it when they are smaller. */
async function fileEntry(full: string, urlPath: string): Promise<StaticFileEntry> {
  const bytes = readFileSync(full);
  // Started first: the threadpool compresses while this thread hashes.
  const encodings = COMPRESSIBLE.has(path.extname(urlPath).toLowerCase()) && bytes.length > 0 ? compress(bytes) : null;
  const entry: StaticFileEntry = {
    type: contentTypeFor(urlPath),
    size: bytes.length,
    hash: createHash('sha256').update(bytes).digest('hex').slice(0, 32),
    encodings: {},
  };
  if (encodings) {
    const [gz, br] = await encodings;
    if (gz.length < bytes.length) {
      writeFileSync(`${full}.gz`, gz);
      entry.encodings.gzip = gz.length;
    }
    if (br.length < bytes.length) {
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
  for (const urlPath of listFiles(clientDir)) {
    files[urlPath] = precompressed[urlPath] ?? (await fileEntry(path.join(clientDir, urlPath), urlPath));
  }
  const manifest: StaticManifest = { updated, siteUrl, files };
  writeFileSync(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}
