/**
 * An API answer as plain data: status, headers, body text. Astro route files wrap
 * it in a web `Response`; the server's direct routes (see server.ts) write it to
 * Node as it is, skipping the Request/Response objects and Astro's per-request
 * pipeline on hot paths. Either way the bytes and headers are the same.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ByteString } from '../../domain/byte-string.ts';

/** A body already made as UTF-8 bytes (see byte-string.ts), in parts that join to it. */
export interface BytesBody {
  readonly bytes: readonly ByteString[];
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /**
   * Absent for 304 and other answers without content. Text, or bytes prepared as
   * byte strings, in parts: they are written a chunk at a time, never joined into
   * one string (a sync listing of every review is 143 MB at 100,000 reviews, and a
   * string over 128 KB goes straight to the old generation, for a full GC to collect).
   */
  body?: string | BytesBody;
}

/**
 * Bytes per write: an MCP search page (60-70 KB) goes in one, and a chunk's string
 * (one part past this at most) stays under V8's 128 KiB for objects of the young generation.
 */
const CHUNK = 96 * 1024;

/** Bytes held in byte strings, as a Buffer: Latin-1 gives back each character's byte. */
const bytesOf = (parts: readonly ByteString[]): Buffer<ArrayBuffer> => Buffer.from(parts.join(''), 'latin1');

export function toResponse(answer: Answer): Response {
  const { body } = answer;
  return new Response(typeof body === 'object' ? bytesOf(body.bytes) : (body ?? null), { status: answer.status, headers: answer.headers });
}

/** Writes the parts from `next` on, a chunk at a time, waiting for the socket to drain; the last chunk ends the answer. */
function writeParts(res: ServerResponse, parts: readonly ByteString[], next = 0): void {
  let index = next;
  while (index < parts.length) {
    const start = index;
    let size = 0;
    while (index < parts.length && size < CHUNK) size += (parts[index++] as ByteString).length;
    // Written as a Latin-1 string, Node copies its bytes straight into the socket's write (no Buffer on the way).
    const chunk = parts.slice(start, index).join('');
    if (index === parts.length) return void res.end(chunk, 'latin1');
    if (!res.write(chunk, 'latin1')) {
      if (!res.destroyed) res.once('drain', () => writeParts(res, parts, index));
      return;
    }
  }
  res.end();
}

export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  const { body } = answer;
  if (typeof body === 'object') {
    // A byte string is as long as its bytes.
    headers['Content-Length'] = body.bytes.reduce((sum, part) => sum + part.length, 0);
    res.writeHead(answer.status, headers);
    if (req.method === 'HEAD') res.end();
    else writeParts(res, body.bytes);
    return;
  }
  // Encoded once, for both its length and the write.
  const bytes = body === undefined ? undefined : Buffer.from(body);
  if (bytes) headers['Content-Length'] = bytes.length;
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
