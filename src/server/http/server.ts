/**
 * The embedded server: pre-rendered files straight from the build (see
 * static-files.ts), search and sync answered directly (see review-endpoints.ts),
 * everything else through Astro's handler, with on-the-fly compression. One
 * process; `npm start` runs it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import compression from 'compression';
import onHeaders from 'on-headers';
import { encodedEtag } from './conditional.ts';
import { writeAnswer } from './answer.ts';
import { apiErrorAnswer, methodNotAllowedAnswer, notFoundAnswer } from './api-error.ts';
import { answerClientError, answerConnect } from './client-error.ts';
import { reviewEndpointFor } from './review-endpoints.ts';
import { MALFORMED_QUERY_HEADER } from './public-headers.ts';
import { normaliseRequestTarget } from './request-target.ts';
import { namesFileOtherwise, serveStaticFile } from './static-files.ts';
import { servedBuildDir } from '../../build/build-layout.ts';
import { escapeMalformedPairs } from '../../domain/catalog/percent-encoding.ts';
import { answerMcp, isMcpPath } from '../mcp/node-adapter.ts';
import { servedBuild } from '../runtime/build-output.ts';
import { catalogOf } from '../runtime/catalog.ts';
import { installBuild, loadBuild } from '../runtime/loaded-build.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

export interface ServerOptions {
  outDir: string;
}

export interface AppServer {
  server: Server;
  /** The build whose server code (Astro's bundle) this process runs; see pinBuild. */
  codeBuildId: string;
}

async function loadAstroHandler(buildDir: string): Promise<NodeHandler> {
  // Without this the adapter's entry starts a server of its own on import.
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const entry = (await import(pathToFileURL(path.join(buildDir, 'server', 'entry.mjs')).href)) as { handler: NodeHandler };
  return entry.handler;
}

function hasValidPercentEncoding(url: string | undefined): boolean {
  try {
    decodeURI(url ?? '/');
    return true;
  } catch {
    return false;
  }
}

const MALFORMED_MESSAGE = 'The URL has a malformed percent-encoding: each % must be followed by two hex digits that encode UTF-8.';

/**
 * The Astro adapter would answer such a URL with a plain-text 400; the API promises
 * JSON errors. Search and since name the parameter at fault themselves.
 */
const MALFORMED_URL = apiErrorAnswer(400, 'bad_request', MALFORMED_MESSAGE, {
  issues: [{ path: 'url', code: 'malformed_percent_encoding', message: MALFORMED_MESSAGE }],
});

/**
 * Methods no route of ours serves and that the fetch API refuses to make a Request
 * of: handed to Astro, they threw in its adapter (a logged stack and a bare 500).
 * Node's parser refuses TRACK itself (a 400), and CONNECT never gets here (see answerConnect).
 */
const FETCH_FORBIDDEN_METHODS = new Set(['TRACE']);
const HUB_PATH = '/api/websub/hub';

/**
 * CORS preflight for the public read API: a browser sends one before a GET that
 * carries If-None-Match, say. Everything is public and uncredentialed, so any
 * origin may ask. MCP, dispatched before this, answers its own (it checks origins).
 */
function answerPreflight(res: ServerResponse, requestHeaders: string | undefined): void {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
    'Access-Control-Allow-Headers': requestHeaders ?? 'If-None-Match, If-Modified-Since',
    'Access-Control-Max-Age': '86400',
    'Cache-Control': 'public, max-age=86400',
    Vary: 'Access-Control-Request-Headers',
  });
  res.end();
}

/**
 * Serves the build OUT_DIR names now; build-watcher.ts switches to later ones. The
 * static files, search, sync, MCP and the hub read the installed build; the on-demand
 * routes run the code of Astro's bundle loaded here, once, until a restart.
 */
export async function createAppServer({ outDir }: ServerOptions): Promise<AppServer> {
  const served = servedBuildDir(outDir);
  const first = loadBuild(served.id, served.dir);
  installBuild(first);
  const astro = await loadAstroHandler(served.dir);
  const compress = compression({ threshold: 1024 }) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

  const siteUrl = first.manifest.siteUrl;
  // Built now rather than by the first search, which would wait for it (seconds at 100,000 reviews).
  catalogOf(first);

  const server = createServer((req, res) => {
    try {
      const target = normaliseRequestTarget(req);
      if (!target.ok) return writeAnswer(req, res, target.answer);
      // Resolved against a base, so that a path starting with // stays a path.
      const url = new URL(`http://localhost${req.url ?? '/'}`);
      const endpoint = reviewEndpointFor(req.method, url.pathname);
      if (endpoint) {
        const conditional = { ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] };
        const answer = endpoint({ url, siteUrl, conditional });
        // The answer carries its own Vary; without Accept-Encoding there is nothing to compress.
        if (!req.headers['accept-encoding']) return writeAnswer(req, res, answer);
        distinguishEncodedEtag(res);
        return compress(req, res, () => writeAnswer(req, res, answer));
      }
      delete req.headers[MALFORMED_QUERY_HEADER];
      if (!hasValidPercentEncoding(req.url)) {
        if (url.pathname !== '/reviews' || !hasValidPercentEncoding(url.pathname)) return writeAnswer(req, res, MALFORMED_URL);
        // The review browser is a page for people: it names the parameter on the page. Astro's
        // handler refuses such a URL outright, so the pairs that do not decode go to it escaped, the query as sent aside.
        req.headers[MALFORMED_QUERY_HEADER] = url.search;
        req.url = `${url.pathname}${escapeMalformedPairs(url.search)}`;
      }
      // MCP, past Astro as well (see src/server/mcp/node-adapter.ts); it answers its own preflights.
      if (isMcpPath(url.pathname)) {
        if (!req.headers['accept-encoding']) return void answerMcp(req, res);
        return compress(req, res, () => void answerMcp(req, res));
      }
      if (req.method === 'OPTIONS') return answerPreflight(res, req.headers['access-control-request-headers']);
      if (FETCH_FORBIDDEN_METHODS.has(req.method ?? '')) {
        return writeAnswer(req, res, methodNotAllowedAnswer(req.method as string, url.pathname === HUB_PATH ? ['POST'] : ['GET', 'HEAD']));
      }
      const build = servedBuild();
      if (serveStaticFile(build, req, res)) return;
      // Astro's handler would serve such a file itself (see namesFileOtherwise).
      if (namesFileOtherwise(build.manifest, req.url ?? '/')) return writeAnswer(req, res, notFoundAnswer(url.pathname));
      compress(req, res, () => astro(req, res));
    } catch (error) {
      console.error(`Unexpected error answering ${req.method} ${req.url}:`, error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal server error\n');
    }
  });
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  return { server, codeBuildId: served.id };
}

/**
 * Registered before the compression middleware, so it runs after it has chosen an
 * encoding: compressed bytes must not carry the strong ETag of the plain ones.
 */
function distinguishEncodedEtag(res: ServerResponse): void {
  onHeaders(res, function (this: ServerResponse) {
    const encoding = this.getHeader('Content-Encoding');
    const etag = this.getHeader('ETag');
    if (typeof encoding === 'string' && typeof etag === 'string') this.setHeader('ETag', encodedEtag(etag, encoding));
  });
}

/** A listen failure with its cause's code (EADDRINUSE, EACCES, …) and a sentence for people. */
export class ListenError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.code = code;
  }
}

/** Listens, turning "port in use" and friends into an error instead of a silent exit. */
export function listen(server: Server, port: number, host: string): Promise<{ port: number; host: string }> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use; stop the other process or set PORT`
          : error.code === 'EACCES'
            ? `no permission to listen on ${host}:${port}; choose a PORT above 1023`
            : error.message;
      reject(new ListenError(`Cannot start the server: ${reason}.`, error.code));
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve({ port: typeof address === 'object' && address ? address.port : port, host });
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
