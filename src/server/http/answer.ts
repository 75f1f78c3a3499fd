/**
 * An API answer as plain data: status, headers, body text. Astro route files wrap
 * it in a web `Response`; the server's direct routes (see server.ts) write it to
 * Node as it is, skipping the Request/Response objects and Astro's per-request
 * pipeline on hot paths. Either way the bytes and headers are the same.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /**
   * Absent for 304 and other answers without content. In parts when it can be big
   * (a sync listing of every review): they are written a chunk at a time, never
   * joined into one string.
   */
  body?: string | readonly string[];
}

const CHUNK = 64 * 1024;

export function toResponse(answer: Answer): Response {
  const body = typeof answer.body === 'object' ? answer.body.join('') : answer.body;
  return new Response(body ?? null, { status: answer.status, headers: answer.headers });
}

/** Writes the parts from `next` on, a chunk at a time, waiting for the socket to drain. */
function writeParts(res: ServerResponse, parts: readonly string[], next = 0): void {
  let index = next;
  while (index < parts.length) {
    const start = index;
    let size = 0;
    while (index < parts.length && size < CHUNK) size += (parts[index++] as string).length;
    if (!res.write(parts.slice(start, index).join(''))) {
      if (!res.destroyed) res.once('drain', () => writeParts(res, parts, index));
      return;
    }
  }
  res.end();
}

export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  if (typeof answer.body === 'object') {
    headers['Content-Length'] = answer.body.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
    res.writeHead(answer.status, headers);
    if (req.method === 'HEAD') res.end();
    else writeParts(res, answer.body);
    return;
  }
  // Encoded once, for both its length and the write.
  const bytes = answer.body === undefined ? undefined : Buffer.from(answer.body);
  if (bytes) headers['Content-Length'] = bytes.length;
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
