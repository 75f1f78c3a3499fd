/**
 * The hub's only way out: HTTPS requests to callbacks with the SSRF guard on
 * every connection, no redirects followed (a 3xx is just an answer), a hard time
 * limit for the whole exchange and a cap on how much of an answer is read.
 */
import { Agent, request } from 'node:https';
import { isIpLiteral } from '../../domain/websub/address.ts';
import { assertPublic, guardedLookup, systemResolver, type Resolver } from './address-guard.ts';

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
  /** Time limit for the TCP and TLS handshake of a new connection: a host that does not even accept gives up its slot early. */
  connectTimeoutMs?: number;
  /** Bytes of the answer kept; the rest is not read. */
  maxResponseBytes: number;
  /** Aborts the request early (shutdown). */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  body: Buffer;
}

export type HttpClient = (request: OutboundRequest) => Promise<OutboundResponse>;

export interface HttpsClientOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
  maxSockets?: number;
}

export function createHttpsClient({ allowPrivate, resolve = systemResolver, maxSockets = 64 }: HttpsClientOptions): HttpClient {
  const lookup = guardedLookup(allowPrivate, resolve);
  // Keep-alive saves a TLS handshake per delivery when many callbacks share a host;
  // a pooled socket stays connected to the address that was checked.
  const agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: 16, scheduling: 'fifo' });

  return (outbound) =>
    new Promise<OutboundResponse>((resolvePromise, reject) => {
      const url = new URL(outbound.url);
      if (url.protocol !== 'https:') return reject(new Error(`refused ${url.protocol} URL: callbacks must use https`));
      // An IP literal skips DNS, hence the lookup guard: check it here.
      if (isIpLiteral(url.hostname)) {
        try {
          assertPublic(url.hostname, [url.hostname.replace(/^\[|\]$/g, '')], allowPrivate);
        } catch (error) {
          return reject(error);
        }
      }
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`no complete answer within ${outbound.timeoutMs} ms`)), outbound.timeoutMs);
      const onOuterAbort = () => controller.abort(outbound.signal?.reason ?? new Error('aborted'));
      outbound.signal?.addEventListener('abort', onOuterAbort, { once: true });
      let connectTimer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (error: Error | undefined, response?: OutboundResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(connectTimer);
        outbound.signal?.removeEventListener('abort', onOuterAbort);
        if (error) reject(controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : error);
        else resolvePromise(response as OutboundResponse);
      };

      const req = request(
        url,
        { method: outbound.method, headers: { 'User-Agent': 'reviews-websub-hub', ...outbound.headers }, agent, lookup, signal: controller.signal },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          const done = () => settle(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
          res.on('data', (chunk: Buffer) => {
            const room = outbound.maxResponseBytes - kept;
            if (room > 0) chunks.push(chunk.subarray(0, room));
            kept += Math.min(room, chunk.length);
            if (chunk.length > room) {
              // Enough read: answer with what we have and drop the connection.
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('error', (error) => settle(error));
          res.on('close', () => settle(new Error('the connection closed before the answer was complete')));
        },
      );
      req.on('error', (error) => settle(error));
      const connectTimeoutMs = outbound.connectTimeoutMs;
      if (connectTimeoutMs !== undefined && connectTimeoutMs < outbound.timeoutMs) {
        req.on('socket', (socket) => {
          // A pooled keep-alive socket is connected already.
          if (!socket.connecting) return;
          connectTimer = setTimeout(() => controller.abort(new Error(`no connection within ${connectTimeoutMs} ms`)), connectTimeoutMs);
          socket.once('secureConnect', () => clearTimeout(connectTimer));
        });
      }
      req.end(outbound.body === undefined ? undefined : Buffer.from(outbound.body.buffer, outbound.body.byteOffset, outbound.body.byteLength));
    });
}
