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
  /** Absent for 304 and other answers without content. */
  body?: string;
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
}

export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  // Encoded once, for both its length and the write.
  const bytes = answer.body === undefined ? undefined : Buffer.from(answer.body);
  if (bytes) headers['Content-Length'] = bytes.length;
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
