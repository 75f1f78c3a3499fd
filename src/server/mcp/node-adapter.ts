/**
 * POST /mcp answered by the embedded server itself (see server.ts), from Node's
 * own request and response: past Astro's per-request pipeline and without web
 * Request/Response objects, which together cost several times what answering a
 * tool call does. Only the SDK's path gets a web Request (it takes nothing else).
 * The Astro route (src/pages/mcp.ts) runs the same endpoint through
 * web-adapter.ts, for hosts that serve Astro's own way; the answers are the same.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeAnswer } from '../http/answer.ts';
import { ClientGone, type McpAnswer, type McpRequest } from './endpoint.ts';
import { INTERNAL_ERROR, jsonRpcError } from './http-responses.ts';
import { mcpEndpoint } from './index.ts';

export function isMcpPath(pathname: string): boolean {
  return pathname === '/mcp' || pathname === '/mcp/';
}

/** The body up to `maxBytes`; past that, undefined, and the rest is let flow away unread. */
function readText(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(req.headers['content-length']) > maxBytes) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      stop();
      req.resume();
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      // As a TextDecoder reads it (what a web Request's text() does): invalid bytes become U+FFFD and a BOM is dropped.
      const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    // An aborted upload gives 'error' (ECONNRESET) and 'close'; either way the client is gone.
    const onError = () => {
      stop();
      reject(new ClientGone('the client closed the connection before the request body ended'));
    };
    const onClose = onError;
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

function nodeRequest(req: IncomingMessage): McpRequest {
  return {
    method: req.method ?? 'GET',
    header(name) {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    text: (maxBytes) => readText(req, maxBytes),
    url: `http://localhost${req.url ?? '/'}`,
    *headerPairs() {
      // Raw, so that repeated headers reach the SDK as they came.
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) yield [req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string];
    },
  };
}

async function writeMcpAnswer(answer: McpAnswer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!answer.stream) return writeAnswer(req, res, answer);
  // An SSE answer is written as its events come, and given up if the client goes.
  res.writeHead(answer.status, answer.headers);
  const reader = answer.stream.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  res.end();
}

export async function answerMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await writeMcpAnswer(await mcpEndpoint()(nodeRequest(req)), req, res);
  } catch (error) {
    // A client that goes away is not an error of ours: nothing to log, nothing to answer.
    if (error instanceof ClientGone || res.destroyed) return;
    console.error(`Unexpected error answering ${req.method} ${req.url}:`, error);
    if (!res.headersSent) writeAnswer(req, res, jsonRpcError(500, INTERNAL_ERROR, 'Internal error: the server failed to answer this request.'));
    else res.destroy();
  }
}
