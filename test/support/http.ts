/** Raw HTTP requests: unlike fetch, node:http sends exactly the headers we give (no added no-cache). */
import { request, type ClientRequest } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

/** An answer's headers but Date, which differs between answers given a second apart: to compare two answers' headers. */
export function headersWithoutDate({ headers }: RawResponse): RawResponse['headers'] {
  const { date: _date, ...rest } = headers;
  return rest;
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; /** Another loopback source address (127.0.0.2, …): another client. */ localAddress?: string } = {},
): Promise<RawResponse> {
  // A connection of its own (agent: false): a pooled one, left idle while the test works on
  // an answer for longer than the server's keep-alive timeout (5 s; parsing 169 MB, say),
  // can be closed by the server just as the next request is written on it ("socket hang up").
  const req = request(url, { method: options.method ?? 'GET', headers: options.headers, timeout: 15_000, localAddress: options.localAddress, agent: false });
  return sendAndRead(req, url, options.body);
}

/** Sends a request made by node:http or node:https (with its body, if any) and reads its whole answer. */
export function sendAndRead(req: ClientRequest, label: string, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes, text: bytes.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${label}`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
