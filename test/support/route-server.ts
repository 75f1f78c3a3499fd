/**
 * One route behind the server's whole pipeline, on a real port: a route's own steps
 * and handler tested over HTTP as clients reach them, without a build.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { pipeline } from '../../src/server/app/app-server.ts';
import { newExchange } from '../../src/server/http/pipeline.ts';
import type { Route } from '../../src/server/http/pipeline.ts';

export interface RouteReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Buffer;
}

export interface RouteServer {
  /** Sends a request from `localAddress` (any 127.x.y.z address, to stand for another client). */
  send(method: string, path: string, options?: { body?: string; headers?: Record<string, string>; localAddress?: string }): Promise<RouteReply>;
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
    send(method, path, { body, headers = {}, localAddress } = {}) {
      return new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path, headers, localAddress, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body.toString('utf8'), body });
          });
        });
        req.on('error', reject);
        req.end(body);
      });
    },
    close,
  };
}
