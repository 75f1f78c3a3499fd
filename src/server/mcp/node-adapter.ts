/**
 * POST /mcp answered by the embedded server itself (see server.ts), past Astro's
 * per-request pipeline, which costs several times an MCP request. The Astro
 * route (src/pages/mcp.ts) runs the very same handler, for hosts that serve
 * Astro's own way; the answers are the same.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { mcpHandler } from './index.ts';
import { INTERNAL_ERROR, jsonRpcError } from './http-responses.ts';

export function isMcpPath(pathname: string): boolean {
  return pathname === '/mcp' || pathname === '/mcp/';
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://localhost${req.url ?? '/'}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return void res.end(Buffer.from(await response.arrayBuffer()));
  // An SSE answer is written as its events come, and given up if the client goes.
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  res.end();
}

export async function answerMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await writeResponse(await mcpHandler()(toRequest(req)), res);
  } catch (error) {
    console.error(`Unexpected error answering ${req.method} ${req.url}:`, error);
    if (!res.headersSent) await writeResponse(jsonRpcError(500, INTERNAL_ERROR, 'Internal error: the server failed to answer this request.'), res);
    else res.destroy();
  }
}
