/**
 * An answer as plain data: status, headers, body. Routes give one back and the
 * pipeline writes it to Node's response as it is, without web Request/Response
 * objects, which cost more than answering a search does.
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
   * A stream (an SSE answer) is written as its chunks come, and given up if the client goes.
   */
  body?: string | BytesBody | ReadableStream<Uint8Array>;
}

/**
 * Bytes per write: an MCP search page (60-70 KB) goes in one, and a chunk's string
 * (one part past this at most) stays under V8's 128 KiB for objects of the young generation.
 */
const CHUNK = 96 * 1024;

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

async function writeStream(res: ServerResponse, stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  res.end();
}

export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  const { body } = answer;
  if (body instanceof ReadableStream) {
    res.writeHead(answer.status, headers);
    void writeStream(res, body).catch(() => res.destroy());
    return;
  }
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
