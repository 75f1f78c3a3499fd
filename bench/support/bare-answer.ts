/**
 * The yardsticks' request handler: answers every request with the same status, headers
 * and body, nothing else. The floor first reads the request's body and parses it as JSON
 * (the least any JSON-RPC endpoint does); the bare one never reads the request.
 */
import type { RequestListener, ServerResponse } from 'node:http';

export function bareListener(body: Buffer, headers: Readonly<Record<string, string>>, { floor = false } = {}): RequestListener {
  const head = { ...headers, 'Content-Length': String(body.length) };
  const answer = (res: ServerResponse) => {
    res.writeHead(200, head);
    res.end(body);
  };
  if (!floor) return (_req, res) => answer(res);
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        answer(res);
      } catch {
        res.writeHead(400).end();
      }
    });
  };
}
