/**
 * Which form a POST's answer takes. The streamable HTTP transport lets a server
 * answer a request with one JSON body or an SSE stream; we answer JSON whenever
 * the client takes it (no `Accept`, `*\/*` and `application/json` included), SSE
 * when it takes only `text/event-stream`, and refuse (406) only when it takes
 * neither.
 */
import Negotiator from 'negotiator';

export type ResponseMode = 'json' | 'sse';

const OFFERED = ['application/json', 'text/event-stream'];

function negotiated(accept: string): ResponseMode | undefined {
  const acceptable = new Negotiator({ headers: { accept } }).mediaTypes(OFFERED);
  if (acceptable.includes('application/json')) return 'json';
  if (acceptable.includes('text/event-stream')) return 'sse';
  return undefined;
}

/**
 * The modes of the Accept values seen last: a client sends the same one on every
 * request, and parsing it was a few per cent of a small answer. Emptied when full,
 * so that a client sending a new value each time costs no memory.
 */
const seen = new Map<string, ResponseMode | undefined>();
const SEEN_MAX = 64;

export function responseMode(accept: string | null): ResponseMode | undefined {
  if (accept === null || accept.trim() === '') return 'json';
  if (seen.has(accept)) return seen.get(accept);
  const mode = negotiated(accept);
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(accept, mode);
  return mode;
}
