/**
 * `POST /mcp`: the streamable HTTP transport around our MCP server. Checks that
 * the SDK leaves to us (Host and Origin, lenient Accept, body size, JSON-RPC
 * shape, signed session ids) happen here; then a fresh stateless SDK transport
 * and server answer the message (a stateless transport serves one request).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { responseMode } from './accept.ts';
import { corsHeaders, preflight } from './cors.ts';
import { INTERNAL_ERROR, jsonRpcError, SESSION_NOT_FOUND, TRANSPORT_ERROR } from './http-responses.ts';
import { parseMessages } from './messages.ts';
import { checkHostAndOrigin } from './origin-guard.ts';
import { directToolCall } from './direct-tool-call.ts';
import type { ToolSet } from './tools/tool-set.ts';
import { SESSION_TTL_SECONDS } from './session-token.ts';
import type { McpSettings } from './settings.ts';

export type McpHandler = (request: Request) => Promise<Response>;

const SESSION_HEADER = 'Mcp-Session-Id';

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'Vary') response.headers.append(name, value);
    else response.headers.set(name, value);
  }
  return response;
}

export function createMcpHandler(settings: McpSettings, createServer: () => Server, tools?: () => ToolSet): McpHandler {
  const { policy, sessions, maxBodyBytes } = settings;

  async function post(request: Request): Promise<Response> {
    const mode = responseMode(request.headers.get('accept'));
    if (mode === undefined) {
      return jsonRpcError(406, TRANSPORT_ERROR, 'Not Acceptable: this endpoint answers application/json or text/event-stream; send Accept: application/json, text/event-stream.');
    }
    const contentType = request.headers.get('content-type');
    if (contentType !== null && !isJsonContentType(contentType)) {
      return jsonRpcError(415, TRANSPORT_ERROR, `Unsupported Media Type: the body must be JSON sent as Content-Type: application/json, not ${contentType}.`);
    }
    const read = await readRequestBody(request, maxBodyBytes);
    if (read.tooLarge) {
      return jsonRpcError(413, TRANSPORT_ERROR, `Payload Too Large: a request body may hold at most ${maxBodyBytes} bytes.`);
    }
    const parsed = parseMessages(read.text);
    if (!parsed.ok) return jsonRpcError(400, parsed.code, parsed.message, { id: parsed.id });

    // An initialize starts a new session whatever id came with it; everything else must carry a live id, or none.
    const sessionId = request.headers.get(SESSION_HEADER);
    if (!parsed.initialize && sessionId !== null) {
      const check = sessions.verify(sessionId);
      if (check !== 'valid') {
        const why = check === 'expired' ? `has expired (sessions last ${SESSION_TTL_SECONDS / 3600} hours)` : 'is not one this server issued';
        return jsonRpcError(404, SESSION_NOT_FOUND, `Session not found: the Mcp-Session-Id ${why}. Send initialize again, without Mcp-Session-Id, to start a new session.`, { id: parsed.id });
      }
    }

    const finish = (response: Response): Response => {
      if (response.ok && parsed.initialize) response.headers.set(SESSION_HEADER, sessions.issue());
      else if (sessionId !== null && !parsed.initialize) response.headers.set(SESSION_HEADER, sessionId);
      // no-transform keeps an SSE stream from being held back by a compressing proxy (or our own compression).
      response.headers.set('Cache-Control', mode === 'sse' ? 'no-store, no-transform' : 'no-store');
      return response;
    };

    const direct = mode === 'json' && tools ? directToolCall(parsed.messages, request.headers.get('mcp-protocol-version'), tools()) : undefined;
    if (direct !== undefined) return finish(new Response(direct, { status: 200, headers: { 'Content-Type': 'application/json' } }));

    // The SDK insists on both types in Accept and on the JSON type; we were lenient above, so say it for the client.
    const headers = new Headers(request.headers);
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('content-type', 'application/json');
    // The body goes over already parsed.
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    const forwarded = new Request(request.url, { method: 'POST', headers });

    const server = createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: mode === 'json' });
    await server.connect(transport);
    // Nothing outlives the answer (an SSE stream ends once it is written), so nothing needs closing.
    return finish(await transport.handleRequest(forwarded, { parsedBody: parsed.body }));
  }

  return async function handleMcp(request: Request): Promise<Response> {
    const guard = checkHostAndOrigin(request.headers, policy);
    if (!guard.ok) return jsonRpcError(403, TRANSPORT_ERROR, guard.message, { headers: { Vary: 'Origin' } });
    const cors = corsHeaders(guard.origin);
    if (request.method === 'OPTIONS') return preflight(guard.origin);
    if (request.method !== 'POST') {
      return jsonRpcError(
        405,
        TRANSPORT_ERROR,
        `Method Not Allowed: ${request.method}. This MCP endpoint takes JSON-RPC messages by POST only: it opens no standalone SSE stream (GET), ` +
          `and sessions are not ended by DELETE (they expire after ${SESSION_TTL_SECONDS / 3600} hours; simply stop using one).`,
        { headers: { Allow: 'POST', ...cors } },
      );
    }
    try {
      return withHeaders(await post(request), cors);
    } catch (error) {
      console.error(`Unexpected error answering POST ${new URL(request.url).pathname}:`, error);
      return jsonRpcError(500, INTERNAL_ERROR, 'Internal error: the server failed to answer this request.', { headers: cors });
    }
  }
}
