/**
 * What a handler that writes to Node's response itself (Astro's) sent, recorded on
 * the way out as an answer that can be written again: status, headers and body,
 * the body as bytes. The writes go through unchanged. A response with a header of
 * several values (cookies) or with no end gives none: it is not a plain answer.
 */
import type { ServerResponse } from 'node:http';
import type { ByteString } from '../../domain/byte-string.ts';
import type { CachedAnswer } from './answer-cache.ts';

/** Headers the writer sets from the body it writes, not part of what is recorded. */
const BODY_FRAMING = new Set(['content-length', 'transfer-encoding']);

type WriteHeadHeaders = Record<string, number | string | string[] | undefined> | undefined;

/** The headers given to writeHead as one string each, or undefined when one has several values (or they come as a list). */
function plainHeaders(given: WriteHeadHeaders): Record<string, string> | undefined {
  if (Array.isArray(given)) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given ?? {})) {
    if (Array.isArray(value)) return undefined;
    if (value !== undefined && !BODY_FRAMING.has(name.toLowerCase())) headers[name] = String(value);
  }
  return headers;
}

/**
 * Starts recording `res`; the function returned gives the answer once the handler
 * has ended it. Only what the handler passes to writeHead is recorded: headers the
 * steps around it add (Vary, by compression) are added again when the answer is written.
 */
export function recordAnswer(res: ServerResponse): () => CachedAnswer | undefined {
  let status = 0;
  let headers: Record<string, string> | undefined;
  let ended = false;
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  };
  const { writeHead, write, end } = res;
  res.writeHead = function recordHead(this: ServerResponse, code: number, ...rest: unknown[]) {
    status = code;
    headers = plainHeaders((typeof rest[0] === 'string' ? rest[1] : rest[0]) as WriteHeadHeaders);
    return writeHead.call(this, code, ...(rest as []));
  } as ServerResponse['writeHead'];
  res.write = function recordWrite(this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return write.call(this, chunk, ...(rest as [BufferEncoding]));
  } as ServerResponse['write'];
  res.end = function recordEnd(this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') keep(chunk, rest[0]);
    ended = true;
    return end.call(this, chunk as string, ...(rest as [BufferEncoding]));
  } as ServerResponse['end'];
  return () => {
    if (!ended || !headers || status === 0) return undefined;
    return { status, headers, body: { bytes: [Buffer.concat(chunks).toString('latin1') as ByteString] } };
  };
}
