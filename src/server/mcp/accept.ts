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

export function responseMode(accept: string | null): ResponseMode | undefined {
  if (accept === null || accept.trim() === '') return 'json';
  const acceptable = new Negotiator({ headers: { accept } }).mediaTypes(OFFERED);
  if (acceptable.includes('application/json')) return 'json';
  if (acceptable.includes('text/event-stream')) return 'sse';
  return undefined;
}
