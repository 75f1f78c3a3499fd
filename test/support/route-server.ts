/**
 * One route behind the server's whole pipeline, on a real port: a route's own steps
 * and handler tested over HTTP as clients reach them, without a build.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { pipeline } from '../../src/server/app/app-server.ts';
import { newExchange, type Route } from '../../src/server/http/pipeline.ts';
import { rawRequest, type RawResponse } from './http.ts';

export interface RouteServer {
  /** Sends a request from `localAddress` (any 127.x.y.z address, to stand for another client). */
  send(method: string, path: string, options?: { body?: string; headers?: Record<string, string>; localAddress?: string }): Promise<RawResponse>;
  close(): Promise<void>;
}

export async function serveRoute(route: Route): Promise<RouteServer> {
  const run = pipeline([route]);
  const server: Server = createServer((req, res) => void run(newExchange(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  afterAll(close);
  return {
    send: (method, path, { body, headers, localAddress } = {}) => rawRequest(`http://127.0.0.1:${port}${path}`, { method, body, headers, localAddress }),
    close,
  };
}
