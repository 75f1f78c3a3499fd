/**
 * An answer as plain data: status, headers, body. Routes give one back and the
 * pipeline writes it to Node's response as it is, without web Request/Response
 * objects, which cost more than answering a search does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ByteString } from '../../domain/byte-string.ts';

/**
 * A body already made as UTF-8 bytes, in parts that join to it: byte strings (see
 * byte-string.ts) or Buffers (what is the same for every request of a build, kept as it is sent).
 */
export interface BytesBody {
  readonly bytes: readonly BodyPart[];
}

export type BodyPart = ByteString | Buffer;

export const partsLength = (parts: readonly BodyPart[]): number => parts.reduce((sum, part) => sum + part.length, 0);

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
 * A body up to this size is handed to the socket whole (its parts are in memory
 * already); a longer one (a sync listing) is copied out a chunk at a time, each
 * chunk of about this size, as the socket drains.
 */
const CHUNK = 96 * 1024;
/** A Buffer part this long is written as it is; shorter parts, and byte strings, are copied together. */
const DIRECT_BYTES = 4 * 1024;

/**
 * The parts from `start` to `end` copied into one Buffer (a lone Buffer is written as
 * it is). A Buffer's bytes live outside V8's heap: an answer leaves no string of its
 * size in the young generation, where the answers in flight would outlive scavenges
 * of its small semi-spaces (memory-settings.ts), and no string to copy again on its
 * way to the socket.
 */
function chunkOf(parts: readonly BodyPart[], start: number, end: number, size: number): Buffer {
  if (end - start === 1) {
    const part = parts[start] as BodyPart;
    return typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
  }
  // Byte strings only (a sync listing, a result made now): V8 joins them in one go, where a
  // write per part costs more than copying a review (a since listing took three times the CPU).
  const range = parts.slice(start, end);
  if (range.every((part) => typeof part === 'string')) return Buffer.from(range.join(''), 'latin1');
  const chunk = Buffer.allocUnsafe(size);
  let offset = 0;
  for (let i = start; i < end; i++) {
    const part = parts[i] as BodyPart;
    offset += typeof part === 'string' ? chunk.write(part, offset, 'latin1') : part.copy(chunk, offset);
  }
  return chunk;
}

/** A body's parts as one Buffer, to keep and write again as it is. */
export function bodyBuffer(parts: readonly BodyPart[]): Buffer {
  return chunkOf(parts, 0, parts.length, partsLength(parts));
}

/**
 * Writes a body of at most CHUNK bytes: long Buffers (a kept answer, a prepared list)
 * as they are, the rest copied together between them, all corked into one write
 * with the headers.
 */
function writeWhole(res: ServerResponse, parts: readonly BodyPart[]): void {
  const chunks: Buffer[] = [];
  let start = 0;
  let size = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as BodyPart;
    if (typeof part === 'string' || part.length < DIRECT_BYTES) {
      size += part.length;
      continue;
    }
    if (i > start) chunks.push(chunkOf(parts, start, i, size));
    chunks.push(part);
    start = i + 1;
    size = 0;
  }
  if (parts.length > start) chunks.push(chunkOf(parts, start, parts.length, size));
  // Compressed on the fly (compression.ts), the body goes to zlib, whose output comes after a socket corked here would wait for it.
  if (chunks.length > 1 && res.getHeader('Content-Encoding') !== undefined) return void res.end(Buffer.concat(chunks));
  if (chunks.length > 1) res.cork();
  for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
  // end() uncorks: the headers and every chunk go to the socket together.
  res.end(chunks.at(-1));
}

/** Writes the parts from `next` on, a chunk at a time, waiting for the socket to drain; the last chunk ends the answer. */
function writeChunks(res: ServerResponse, parts: readonly BodyPart[], next = 0): void {
  let index = next;
  while (index < parts.length) {
    const start = index;
    let size = 0;
    while (index < parts.length && size < CHUNK) size += (parts[index++] as BodyPart).length;
    const chunk = chunkOf(parts, start, index, size);
    if (index === parts.length) return void res.end(chunk);
    if (!res.write(chunk)) {
      if (!res.destroyed) res.once('drain', () => writeChunks(res, parts, index));
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
    const length = partsLength(body.bytes);
    headers['Content-Length'] = length;
    res.writeHead(answer.status, headers);
    if (req.method === 'HEAD') res.end();
    else if (length <= CHUNK) writeWhole(res, body.bytes);
    else writeChunks(res, body.bytes);
    return;
  }
  // Encoded once, for both its length and the write.
  const bytes = body === undefined ? undefined : Buffer.from(body);
  if (bytes) headers['Content-Length'] = bytes.length;
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
