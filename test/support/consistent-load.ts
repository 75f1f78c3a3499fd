/**
 * A steady load of GETs that checks every answer as a client or a CDN would rely on
 * it: status 200, Content-Length equal to the bytes received, br and gzip bodies that
 * decode, a static file whose bytes hash to its strong ETag (compressed variants
 * included: they must decode to the identity bytes the tag names), JSON that parses,
 * and one ETag never naming two different bodies.
 */
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface LoadReport {
  requests: number;
  failures: string[];
}

export interface Load {
  stop(): Promise<LoadReport>;
}

const ENCODINGS = ['identity', 'gzip', 'br', 'br, gzip'] as const;
const STATIC = new Set(['/reviews.json', '/insights.json', '/feed.xml', '/api/feed.json']);

function get(agent: Agent, url: string, acceptEncoding: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'Accept-Encoding': acceptEncoding }, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('response aborted')));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  return body;
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Problems with one answer; empty when it is consistent. */
function check(path: string, res: Awaited<ReturnType<typeof get>>, bodiesByEtag: Map<string, string>): string[] {
  if (res.status !== 200) return [`${path}: status ${res.status}`];
  const problems: string[] = [];
  const length = res.headers['content-length'];
  if (length !== undefined && Number(length) !== res.body.length) problems.push(`${path}: Content-Length ${length}, ${res.body.length} bytes received`);
  const encoding = res.headers['content-encoding'] as string | undefined;
  let identity: Buffer;
  try {
    identity = decode(res.body, encoding);
  } catch (error) {
    return [...problems, `${path}: ${encoding} body does not decode: ${(error as Error).message}`];
  }
  const etag = res.headers.etag as string | undefined;
  if (STATIC.has(path)) {
    const tagged = /^"([0-9a-f]{32})(?:-(br|gzip))?"$/.exec(etag ?? '');
    if (!tagged) problems.push(`${path}: ETag ${etag} is not a strong tag of the bytes`);
    else if (tagged[1] !== sha(identity).slice(0, 32)) problems.push(`${path}: ETag ${etag} does not name the ${encoding ?? 'identity'} bytes sent`);
    else if ((tagged[2] ?? undefined) !== encoding) problems.push(`${path}: ETag ${etag} sent with Content-Encoding ${encoding}`);
  }
  if (etag) {
    const hash = sha(identity);
    const seen = bodiesByEtag.get(`${path} ${etag}`);
    if (seen && seen !== hash) problems.push(`${path}: ETag ${etag} named two different bodies`);
    bodiesByEtag.set(`${path} ${etag}`, hash);
  }
  if (path !== '/feed.xml') {
    try {
      JSON.parse(identity.toString('utf8'));
    } catch {
      problems.push(`${path}: the body is not whole JSON`);
    }
  } else if (!identity.toString('utf8').trimEnd().endsWith('</feed>')) {
    problems.push(`${path}: the feed is cut short`);
  }
  return problems;
}

/** Runs `concurrency` request loops over `paths` until stopped, each pausing `pauseMs` between requests (room for a build on 2 cores). */
export function startLoad(baseUrl: string, paths: readonly string[], concurrency = 4, pauseMs = 0): Load {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const failures: string[] = [];
  const bodiesByEtag = new Map<string, string>();
  let requests = 0;
  let running = true;
  const loop = async (worker: number) => {
    for (let i = worker; running; i++) {
      const path = paths[i % paths.length] as string;
      const acceptEncoding = ENCODINGS[(i + worker) % ENCODINGS.length] as string;
      requests++;
      try {
        failures.push(...check(path.split('?')[0] as string, await get(agent, `${baseUrl}${path}`, acceptEncoding), bodiesByEtag));
      } catch (error) {
        failures.push(`${path} (${acceptEncoding}): ${(error as Error).message}`);
      }
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const loops = Array.from({ length: concurrency }, (_, worker) => loop(worker));
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      return { requests, failures };
    },
  };
}
