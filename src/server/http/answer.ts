/**
 * An API answer as plain data: status, headers, body text. Astro route files wrap
 * it in a web `Response`; the server's direct routes (see server.ts) write it to
 * Node as it is, skipping the Request/Response objects and Astro's per-request
 * pipeline on hot paths. Either way the bytes and headers are the same.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ByteString } from '../../domain/byte-string.ts';

/** A body already made as UTF-8 bytes (see byte-string.ts): whole, or in parts when it can be big. */
export interface BytesBody {
  readonly bytes: ByteString | readonly ByteString[];
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /**
   * Absent for 304 and other answers without content. Text, or bytes prepared as
   * byte strings; bytes in parts (a sync listing of every review) are written a
   * chunk at a time, never joined into one string.
   */
  body?: string | BytesBody;
}

const CHUNK = 64 * 1024;

/** Bytes held in byte strings, as a Buffer: Latin-1 gives back each character's byte. */
const bytesOf = (parts: ByteString | readonly ByteString[]): Buffer<ArrayBuffer> =>
  Buffer.from(typeof parts === 'string' ? parts : parts.join(''), 'latin1');

export function toResponse(answer: Answer): Response {
  const { body } = answer;
  return new Response(typeof body === 'object' ? bytesOf(body.bytes) : (body ?? null), { status: answer.status, headers: answer.headers });
}

/** Writes the parts from `next` on, a chunk at a time, waiting for the socket to drain. */
function writeParts(res: ServerResponse, parts: readonly ByteString[], next = 0): void {
  let index = next;
  while (index < parts.length) {
    const start = index;
    let size = 0;
    while (index < parts.length && size < CHUNK) size += (parts[index++] as ByteString).length;
    if (!res.write(bytesOf(parts.slice(start, index)))) {
      if (!res.destroyed) res.once('drain', () => writeParts(res, parts, index));
      return;
    }
  }
  res.end();
}

export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  const { body } = answer;
  if (typeof body === 'object' && typeof body.bytes === 'object') {
    // A byte string is as long as its bytes.
    headers['Content-Length'] = body.bytes.reduce((sum, part) => sum + part.length, 0);
    res.writeHead(answer.status, headers);
    if (req.method === 'HEAD') res.end();
    else writeParts(res, body.bytes);
    return;
  }
  // Encoded once, for both its length and the write.
  const bytes = body === undefined ? undefined : typeof body === 'object' ? bytesOf(body.bytes) : Buffer.from(body);
  if (bytes) headers['Content-Length'] = bytes.length;
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
