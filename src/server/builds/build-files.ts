/**
 * Serves the pre-rendered files from the build's manifest: exact content types,
 * strong ETags from the bytes, Last-Modified from the content, precompressed
 * brotli and gzip, conditional GET, CORS and discovery links. A file served before
 * is written from memory (kept-files.ts); the others are streamed from their handles.
 */
import { read } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import Negotiator from 'negotiator';
import type { StaticFileEntry, StaticManifest } from '../../build/static-manifest.ts';
import { notFoundAnswer } from '../http/api-error.ts';
import { encodedEtag, etagFamily, isNotModified, lastModifiedOf } from '../http/conditional.ts';
import { cacheControlFor, linkHeaderFor } from '../http/public-headers.ts';
import { NO_PARAMS } from '../http/pipeline.ts';
import { READ_METHODS, route } from '../http/route.ts';
import { keptFile } from './kept-files.ts';
import type { Encoding, LoadedBuild } from './loaded-build.ts';
import { servedBuild } from './served-build.ts';

// @types/negotiator lags the library: 1.x takes the server's preference order for ties.
type EncodingNegotiator = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

function negotiateEncoding(req: IncomingMessage, offered: Encoding[]): Encoding | 'identity' | undefined {
  const negotiator = new Negotiator(req) as unknown as EncodingNegotiator;
  return negotiator.encoding([...offered, 'identity'], { preferred: ['br', 'gzip', 'identity'] }) as Encoding | 'identity' | undefined;
}

export function etagOf(entry: StaticFileEntry, encoding?: Encoding): string {
  const etag = `"${entry.hash}"`;
  return encoding ? encodedEtag(etag, encoding) : etag;
}

function resolvePath(manifest: StaticManifest, pathname: string): string | undefined {
  const candidates = pathname.endsWith('/') ? [`${pathname}index.html`] : [pathname, `${pathname}.html`];
  return candidates.find((candidate) => candidate in manifest.files);
}

const READ_SIZE = 64 * 1024;

/**
 * The bytes of one of the build's shared handles, read by position, as a stream that
 * never closes the handle. fs.createReadStream closes its fd when it is destroyed
 * (`autoClose: false` only spares it at the end), so a client that left early closed
 * the file for every later response and freed its number for the next open to reuse.
 * A destroy waits for a read in flight, so the handle is not released under it.
 */
function sharedFileStream(fd: number, size: number): Readable {
  let position = 0;
  let reading = false;
  let afterRead: (() => void) | undefined;
  return new Readable({
    highWaterMark: READ_SIZE,
    read() {
      const length = Math.min(READ_SIZE, size - position);
      if (length <= 0) return void this.push(null);
      reading = true;
      read(fd, Buffer.allocUnsafe(length), 0, length, position, (error, bytes, buffer) => {
        reading = false;
        if (afterRead) return afterRead();
        if (error) return void this.destroy(error);
        if (bytes === 0) return void this.destroy(new Error(`The file is shorter (${position} bytes) than its manifest says (${size}).`));
        position += bytes;
        this.push(buffer.subarray(0, bytes));
      });
    },
    destroy(error, callback) {
      if (reading) afterRead = () => callback(error);
      else callback(error);
    },
  });
}

/**
 * Whether a path that names no file still names one of the build's files once decoded
 * and normalised (`/%2freviews.json`, `/reviews/..%2freviews.json`), or one of their
 * precompressed copies (`/reviews.json.br`). Such a path names nothing here: a
 * percent-encoded slash is data, not a path separator (RFC 3986), and the copies are
 * served only through content negotiation, with the document's own type. It is a JSON
 * 404 rather than a page for people, since it is a machine's mistake.
 */
export function namesFileOtherwise(manifest: StaticManifest, target: string): boolean {
  const query = target.indexOf('?');
  const raw = query >= 0 ? target.slice(0, query) : target;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Malformed: refused before this is asked.
  }
  const normalized = path.posix.normalize(decoded.replace(/^\/*/, '/'));
  const plain = normalized.replace(/\.(?:br|gz)$/, '');
  return [normalized, plain, `${normalized}.html`, `${normalized.replace(/\/$/, '')}/index.html`].some((candidate) => candidate in manifest.files);
}

/**
 * Answers the request with one of the build's files. The whole answer (headers and bytes) comes from that one
 * build, through the file handles it holds open, whatever switch happens meanwhile.
 */
function serveStaticFile(build: LoadedBuild, urlPath: string, req: IncomingMessage, res: ServerResponse): void {
  const { manifest } = build;
  const lastModified = lastModifiedOf(manifest.updated);
  const entry = manifest.files[urlPath] as StaticFileEntry;

  const compressible = entry.encodings.br !== undefined || entry.encodings.gzip !== undefined;
  const headers: Record<string, string | number> = {
    'Cache-Control': cacheControlFor(urlPath),
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'ETag, Last-Modified, Link',
    'X-Content-Type-Options': 'nosniff',
  };
  if (compressible) headers.Vary = 'Accept-Encoding';
  const link = linkHeaderFor(urlPath, manifest.siteUrl);
  if (link) headers.Link = link;

  const offered = (['br', 'gzip'] as const).filter((e) => entry.encodings[e] !== undefined);
  const chosen = offered.length ? negotiateEncoding(req, offered) : 'identity';
  if (chosen === undefined) {
    res.writeHead(406, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('None of the encodings in Accept-Encoding is available.\n');
    return;
  }
  const encoding = chosen === 'identity' ? undefined : chosen;
  headers.ETag = etagOf(entry, encoding);
  if (lastModified) headers['Last-Modified'] = lastModified.toUTCString();

  if (
    isNotModified(
      { ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] },
      { etags: etagFamily(etagOf(entry)), lastModified },
    )
  ) {
    res.writeHead(304, headers);
    res.end();
    return;
  }

  headers['Content-Type'] = entry.type;
  headers['Content-Length'] = encoding ? (entry.encodings[encoding] as number) : entry.size;
  if (encoding) headers['Content-Encoding'] = encoding;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const { fd, size } = build.file(urlPath, encoding);
  if (size === 0) {
    res.end();
    return;
  }
  const kept = keptFile(build, urlPath, encoding);
  if (kept !== undefined) {
    res.end(kept);
    return;
  }
  const release = build.hold();
  // Positional reads, so one handle serves every response at once; pipeline stops reading when the
  // client goes away, and the build is held until the stream has closed (no read left in flight).
  const body = sharedFileStream(fd, size);
  body.once('close', release);
  pipeline(body, res, (error) => {
    if (error) res.destroy();
  });
}

/** The file of `build` a decoded path names, if any. */
function fileFor(build: LoadedBuild, pathname: string): string | undefined {
  try {
    return resolvePath(build.manifest, decodeURIComponent(pathname));
  } catch {
    return undefined;
  }
}

/**
 * The pre-rendered documents and pages of the served build. The file is chosen and
 * served from one build, even if a switch comes between the routing and the answer.
 */
export const buildFilesRoute = route({
  name: 'build files',
  path: '(each file of the served build)',
  methods: READ_METHODS,
  match: (pathname) => (fileFor(servedBuild(), pathname) === undefined ? undefined : NO_PARAMS),
  handle({ req, res, url }) {
    const build = servedBuild();
    const file = fileFor(build, url.pathname);
    if (file === undefined) return notFoundAnswer(url.pathname);
    serveStaticFile(build, file, req, res);
    return undefined;
  },
});

/** Other spellings of a build file (see namesFileOtherwise): a JSON 404. */
export const otherSpellingsRoute = route({
  name: 'other spellings of build files',
  path: '(a build file once decoded, or a precompressed copy)',
  methods: READ_METHODS,
  match: (pathname) => (namesFileOtherwise(servedBuild().manifest, pathname) ? NO_PARAMS : undefined),
  handle: ({ url }) => notFoundAnswer(url.pathname),
});
