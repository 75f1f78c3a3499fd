/**
 * `POST /mcp`: the streamable HTTP transport around our MCP server. Checks that
 * the SDK leaves to us (Host and Origin, lenient Accept, body size, JSON-RPC
 * shape, signed session ids) happen here; then a single JSON `tools/call` is
 * answered directly (see direct-tool-call.ts) and anything else by a fresh
 * stateless SDK transport and server (a stateless transport serves one request).
 *
 * The endpoint sees a request through `McpRequest`, so that the embedded server
 * hands it Node's request as it is (node-adapter.ts) and Astro's route a web
 * Request (web-adapter.ts): building web Request and Response objects costs more
 * than answering a tool call does.
 */
import {
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import type { Answer } from '../http/answer.ts';
import { ACCEPTED_REQUEST_CODINGS, contentCodingMessage, unsupportedContentCoding } from '../http/content-coding.ts';
import { responseMode, type ResponseMode } from './accept.ts';
import { corsHeaders, preflight } from './cors.ts';
import { answerBudget, type AnswerBudget } from './answer-budget.ts';
import { INTERNAL_ERROR, jsonRpcError, SESSION_NOT_FOUND, TRANSPORT_ERROR } from './http-responses.ts';
import { INVALID_PARAMS } from './protocol-error.ts';
import { initializeParamsProblem, parseMessages } from './messages.ts';
import { allowsBatches, isModernVersion, isProtocolVersion, negotiatedVersion, protocolVersionsText } from '../../domain/mcp-protocol-versions.ts';
import { checkHostAndOrigin } from './origin-guard.ts';
import { directToolCall } from './direct-tool-call.ts';
import type { ToolSet } from './tools/tool-set.ts';
import { SESSION_TTL_SECONDS } from './session-token.ts';
import type { McpSettings } from './settings.ts';

/** What the endpoint needs of an HTTP request, whichever server received it. */
export interface McpRequest {
  readonly method: string;
  /** A header's value, by its lower-case name; null when absent. */
  header(name: string): string | null;
  /**
   * The body as text, or undefined once it is longer than `maxBytes` (the rest is not kept);
   * rejects with ClientGone when the client goes away before the body ends.
   */
  text(maxBytes: number): Promise<string | undefined>;
  /** The absolute URL, and every header as [name, value] pairs: what the SDK's web Request is made of. */
  readonly url: string;
  headerPairs(): Iterable<[string, string]>;
}

/** The client went away before its request was read: not a fault of the server, and nothing to answer or log. */
export class ClientGone extends Error {}

/** A plain answer, or an SSE stream (the SDK's answer when the client takes only text/event-stream). */
export type McpAnswer = Answer & { stream?: ReadableStream<Uint8Array> };

export type McpEndpoint = (request: McpRequest) => Promise<McpAnswer>;

const SESSION_HEADER = 'Mcp-Session-Id';
/** Headers the forwarded request must not carry: its body goes over already parsed. */
const BODY_HEADERS = new Set(['content-length', 'transfer-encoding']);
/**
 * Headers of the SDK's answer that are not its to set: the connection belongs to
 * our HTTP server, which keeps it or closes it as the client asked (the SDK says
 * `Connection: keep-alive` on every SSE answer, even to a client that sent `Connection: close`).
 */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** Sets a header whatever the case of the name it already has; Vary is added to, not replaced. */
function setHeader(answer: Answer, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key of Object.keys(answer.headers)) {
    if (key.toLowerCase() !== lower) continue;
    if (lower === 'vary') value = `${answer.headers[key]}, ${value}`;
    delete answer.headers[key];
  }
  answer.headers[name] = value;
}

/**
 * The request as the SDK's transport takes it: a web Request without its body, and
 * with these headers replaced (names in lower case).
 */
function forwarded(request: McpRequest, replaced: Record<string, string>): Request {
  const headers = new Headers();
  for (const [name, value] of request.headerPairs()) {
    const lower = name.toLowerCase();
    if (!BODY_HEADERS.has(lower) && !(lower in replaced)) headers.append(lower, value);
  }
  for (const [name, value] of Object.entries(replaced)) headers.set(name, value);
  return new Request(request.url, { method: request.method, headers });
}

/** The SDK's web Response as an answer: JSON is read out, an SSE stream handed on as it comes. */
async function fromResponse(response: Response): Promise<McpAnswer> {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !CONNECTION_HEADERS.has(name)));
  if (response.body === null) return { status: response.status, headers };
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) return { status: response.status, headers, stream: response.body };
  return { status: response.status, headers, body: await response.text() };
}

/** The MCP server for one request; what it answers is charged to `budget`. */
export type ServerFactory = (budget: AnswerBudget) => Server;

/**
 * Whether a request is of the 2026-07-28 era: its header names a modern version, or
 * a message carries the per-request `_meta` envelope. The common 2025 request is told
 * here without the SDK; anything that looks modern is left to the SDK's own
 * classification (which also answers malformed envelopes).
 */
function mayBeModern(headerVersion: string | null, messages: readonly unknown[]): boolean {
  if (headerVersion !== null && isModernVersion(headerVersion)) return true;
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
    return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
  });
}

export function createMcpEndpoint(settings: McpSettings, createServer: ServerFactory, tools?: () => ToolSet): McpEndpoint {
  const { policy, sessions, maxBodyBytes } = settings;
  // The SDK's handler for 2026-07-28 requests (2025-era ones come here, with our sessions); its factory
  // finds the request's budget by the forwarded Request it was handed.
  const budgets = new WeakMap<Request, AnswerBudget>();
  const modernFactory = (context: { requestInfo?: Request }) =>
    createServer((context.requestInfo && budgets.get(context.requestInfo)) ?? answerBudget(settings.maxAnswerBytes));
  const modern: Record<ResponseMode, McpHttpHandler> = {
    json: createMcpHandler(modernFactory, { legacy: 'reject', responseMode: 'json', maxRequestBodySize: maxBodyBytes }),
    sse: createMcpHandler(modernFactory, { legacy: 'reject', responseMode: 'sse', maxRequestBodySize: maxBodyBytes }),
  };

  async function post(request: McpRequest): Promise<McpAnswer> {
    const mode = responseMode(request.header('accept'));
    if (mode === undefined) {
      return jsonRpcError(406, TRANSPORT_ERROR, 'Not Acceptable: this endpoint answers application/json or text/event-stream; send Accept: application/json, text/event-stream.');
    }
    const contentType = request.header('content-type');
    if (contentType !== null && !isJsonContentType(contentType)) {
      return jsonRpcError(415, TRANSPORT_ERROR, `Unsupported Media Type: the body must be JSON sent as Content-Type: application/json, not ${contentType}.`);
    }
    const coding = unsupportedContentCoding(request.header('content-encoding'));
    if (coding !== undefined) {
      return jsonRpcError(415, TRANSPORT_ERROR, contentCodingMessage(coding, 'the JSON body'), { headers: { 'Accept-Encoding': ACCEPTED_REQUEST_CODINGS } });
    }
    const text = await request.text(maxBodyBytes);
    if (text === undefined) {
      return jsonRpcError(413, TRANSPORT_ERROR, `Payload Too Large: a request body may hold at most ${maxBodyBytes} bytes.`);
    }
    // The version a request is read under: its header, or else the one its session negotiated (clients before 2025-06-18 send no header).
    const headerVersion = request.header('mcp-protocol-version');
    const sessionId = request.header('mcp-session-id');
    const version = headerVersion ?? (sessionId === null ? undefined : sessions.protocolVersion(sessionId));
    const parsed = parseMessages(text, version !== undefined && isProtocolVersion(version) && allowsBatches(version) ? version : undefined);
    if (!parsed.ok) return jsonRpcError(400, parsed.code, parsed.message, { id: parsed.id });
    const budget = answerBudget(settings.maxAnswerBytes);
    // The SDK insists on both types in Accept and on the JSON type; we were lenient above, so say it for the client.
    const sdkRequest = () => forwarded(request, { accept: 'application/json, text/event-stream', 'content-type': 'application/json' });

    if (mayBeModern(headerVersion, parsed.messages)) {
      const modernRequest = sdkRequest();
      if (!(await isLegacyRequest(modernRequest, parsed.body))) {
        // 2026-07-28: no sessions; the SDK checks the envelope and the headers against it.
        budgets.set(modernRequest, budget);
        const answer = await fromResponse(await modern[mode].fetch(modernRequest, { parsedBody: parsed.body }));
        setHeader(answer, 'Cache-Control', mode === 'sse' ? 'no-store, no-transform' : 'no-store');
        return answer;
      }
    }

    // An initialize the SDK would not take: invalid params in words (it would say -32603 and list zod issues).
    const initializeProblem = parsed.batch ? undefined : initializeParamsProblem(parsed.messages[0] as (typeof parsed.messages)[number]);
    if (initializeProblem !== undefined) return jsonRpcError(200, INVALID_PARAMS, initializeProblem, { id: parsed.id });

    if (!parsed.initialize && headerVersion !== null && !isProtocolVersion(headerVersion)) {
      return jsonRpcError(
        400,
        TRANSPORT_ERROR,
        `Bad Request: MCP-Protocol-Version ${JSON.stringify(headerVersion)} is not one this server speaks; it speaks ${protocolVersionsText()}. ` +
          'Send the version that initialize negotiated.',
        { id: parsed.id },
      );
    }

    // An initialize starts a new session whatever id came with it; everything else must carry a live id, or none.
    if (!parsed.initialize && sessionId !== null) {
      const check = sessions.verify(sessionId);
      if (check !== 'valid') {
        const why = check === 'expired' ? `has expired (sessions last ${SESSION_TTL_SECONDS / 3600} hours)` : 'is not one this server issued';
        return jsonRpcError(404, SESSION_NOT_FOUND, `Session not found: the Mcp-Session-Id ${why}. Send initialize again, without Mcp-Session-Id, to start a new session.`, { id: parsed.id });
      }
    }

    const finish = (answer: McpAnswer): McpAnswer => {
      if (answer.status >= 200 && answer.status < 300 && parsed.initialize) setHeader(answer, SESSION_HEADER, sessions.issue(negotiatedVersion(parsed.requestedVersion)));
      else if (sessionId !== null && !parsed.initialize) setHeader(answer, SESSION_HEADER, sessionId);
      // no-transform keeps an SSE stream from being held back by a compressing proxy (or our own compression).
      setHeader(answer, 'Cache-Control', mode === 'sse' ? 'no-store, no-transform' : 'no-store');
      return answer;
    };

    const direct = mode === 'json' && !parsed.batch && tools ? directToolCall(parsed.messages, headerVersion, tools(), budget) : undefined;
    if (direct !== undefined) return finish({ status: 200, headers: { 'Content-Type': 'application/json' }, body: { bytes: direct } });

    const server = createServer(budget);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: mode === 'json' });
    await server.connect(transport);
    // Nothing outlives the answer (an SSE stream ends once it is written), so nothing needs closing.
    return finish(await fromResponse(await transport.handleRequest(sdkRequest(), { parsedBody: parsed.body })));
  }

  return async function answerMcpRequest(request: McpRequest): Promise<McpAnswer> {
    const guard = checkHostAndOrigin(request.header('host'), request.header('origin'), policy);
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
      const answer = await post(request);
      for (const [name, value] of Object.entries(cors)) setHeader(answer, name, value);
      return answer;
    } catch (error) {
      if (error instanceof ClientGone) throw error;
      console.error('Unexpected error answering POST /mcp:', error);
      return jsonRpcError(500, INTERNAL_ERROR, 'Internal error: the server failed to answer this request.', { headers: cors });
    }
  };
}
