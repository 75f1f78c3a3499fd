/**
 * `POST /mcp`, the route of the MCP endpoint (streamable HTTP). The checks the SDK
 * leaves to us are steps in front (Host and Origin, preflight, POST only, lenient
 * Accept, JSON, no content coding, body size); then the JSON-RPC shape and signed
 * session ids; then a single JSON `tools/call` or `tools/list` is answered directly
 * (see direct-answers.ts) and anything else by the SDK: its handler for 2026-07-28,
 * a fresh stateless transport and server for the 2025 era.
 */
import type { IncomingMessage } from 'node:http';
import {
  createMcpHandler,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import type { Answer } from '../http/answer.ts';
import { route } from '../http/route.ts';
import type { Route } from '../http/pipeline.ts';
import { setHeader } from './answer-headers.ts';
import { acceptable, checkOf, corsOnAnswers, header, hostAndOrigin, internalErrors, jsonBody, mcpPreflight, postOnly } from './request-checks.ts';
import { ACCEPTED_REQUEST_CODINGS, contentCodingMessage, identityCoding } from '../http/steps/content-coding.ts';
import { requestBody } from '../http/steps/request-body.ts';
import { allowsBatches, isModernVersion, isProtocolVersion, negotiatedVersion, PROTOCOL_VERSIONS, protocolVersionsText } from '../../domain/mcp-protocol-versions.ts';
import type { ResponseMode } from './accept.ts';
import { answerBudget, type AnswerBudget } from './answer-budget.ts';
import { directAnswer, type DirectContext, type DirectRequest } from './direct-answers.ts';
import { jsonRpcError, SESSION_NOT_FOUND, TRANSPORT_ERROR } from './http-responses.ts';
import { initializeParamsProblem, parseMessages, toolCallParamsProblem } from './messages.ts';
import { INVALID_PARAMS } from './protocol-error.ts';
import { SESSION_TTL_SECONDS } from './session-token.ts';
import type { McpSettings } from './settings.ts';

const SESSION_HEADER = 'Mcp-Session-Id';
/** Headers the forwarded request must not carry: its body goes over already parsed. */
const BODY_HEADERS = new Set(['content-length', 'transfer-encoding']);
/**
 * Headers of the SDK's answer that are not its to set: the connection belongs to
 * our HTTP server, which keeps it or closes it as the client asked (the SDK says
 * `Connection: keep-alive` on every SSE answer, even to a client that sent `Connection: close`).
 */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding']);


/**
 * The request as the SDK's transport takes it: a web Request without its body, and
 * with these headers replaced (names in lower case). Raw headers, so that repeated
 * ones reach the SDK as they came.
 */
function forwarded(req: IncomingMessage, replaced: Record<string, string>): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = (raw[i] as string).toLowerCase();
    if (!BODY_HEADERS.has(lower) && !(lower in replaced)) headers.append(lower, raw[i + 1] as string);
  }
  for (const [name, value] of Object.entries(replaced)) headers.set(name, value);
  return new Request(`http://localhost${req.url ?? '/'}`, { method: req.method ?? 'POST', headers });
}

/** The SDK's web Response as an answer: JSON is read out, an SSE stream handed on as it comes. */
async function fromResponse(response: Response): Promise<Answer> {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !CONNECTION_HEADERS.has(name)));
  if (response.body === null) return { status: response.status, headers };
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) return { status: response.status, headers, body: response.body };
  return { status: response.status, headers, body: await response.text() };
}

const isDiscover = (messages: readonly unknown[]) => messages.length === 1 && (messages[0] as { method?: unknown }).method === 'server/discover';

/**
 * server/discover lists every version the endpoint serves, the 2025 ones (reached
 * through initialize) too; the SDK lists the 2026 ones only, and offers no option
 * for it. Its answer is one small JSON object (or one SSE event): rewritten here.
 */
async function listingEveryVersion(answer: Answer): Promise<Answer> {
  const { body } = answer;
  const text = body instanceof ReadableStream ? await new Response(body).text() : typeof body === 'string' ? body : undefined;
  if (text === undefined) return answer;
  const rewrite = (json: string) => {
    const message = JSON.parse(json) as { result?: { supportedVersions?: string[] } };
    if (message.result?.supportedVersions) message.result.supportedVersions = [...PROTOCOL_VERSIONS];
    return JSON.stringify(message);
  };
  const rewritten = body instanceof ReadableStream ? text.replace(/^data: (.*)$/m, (_, json: string) => `data: ${rewrite(json)}`) : rewrite(text);
  return { ...answer, body: rewritten };
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

/** The server for one request, and what every request of a build shares. */
export interface McpServing {
  settings: McpSettings;
  createServer: ServerFactory;
  /** What the direct answers of the served build are made of. */
  direct: () => DirectContext;
}

/**
 * POST /mcp, the streamable HTTP transport around our MCP server: the checks the
 * SDK leaves to us (Host and Origin, lenient Accept, body size, JSON-RPC shape,
 * signed session ids) are steps in front of the answer.
 */
export function mcpRoute(serving: McpServing): Route {
  const { maxBodyBytes } = serving.settings;
  const answer = messageAnswerer(serving);
  return route({
    name: 'mcp',
    path: '/mcp',
    methods: 'any',
    preflight: 'own',
    compress: 'if-accepted',
    steps: [
      hostAndOrigin(serving.settings.policy),
      mcpPreflight,
      postOnly,
      corsOnAnswers,
      internalErrors,
      acceptable,
      jsonBody,
      identityCoding((coding) =>
        jsonRpcError(415, TRANSPORT_ERROR, contentCodingMessage(coding, 'the JSON body'), { headers: { 'Accept-Encoding': ACCEPTED_REQUEST_CODINGS } }),
      ),
      requestBody(maxBodyBytes, () => jsonRpcError(413, TRANSPORT_ERROR, `Payload Too Large: a request body may hold at most ${maxBodyBytes} bytes.`)),
    ],
    handle: (exchange) => answer(exchange.req, checkOf(exchange).mode, exchange.body ?? ''),
  });
}

/** A checked request whose messages parsed: what the ways of answering it read. */
interface ParsedRequest {
  readonly req: IncomingMessage;
  readonly mode: ResponseMode;
  readonly parsed: Extract<ReturnType<typeof parseMessages>, { ok: true }>;
  /** MCP-Protocol-Version and Mcp-Session-Id as sent. */
  readonly headerVersion: string | null;
  readonly sessionId: string | null;
  readonly budget: AnswerBudget;
}

/** The SDK insists on both types in Accept and on the JSON type; we were lenient above, so say it for the client. */
const sdkRequest = (req: IncomingMessage) => forwarded(req, { accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
const refusal = (problem: string, { parsed }: ParsedRequest) => jsonRpcError(200, INVALID_PARAMS, problem, { id: parsed.id });
/** A tools/call the SDK would refuse with its zod issues as JSON is refused in words before the SDK answers it. */
const toolCallProblem = ({ parsed }: ParsedRequest) => (parsed.batch ? undefined : toolCallParamsProblem(parsed.messages[0] as (typeof parsed.messages)[number]));

/**
 * The messages of a checked request answered: by the SDK's handler for 2026-07-28, with
 * our sessions for the 2025 era. A request the direct path answers is answered at once
 * (no promise): it is the common one, and its answer is mostly prepared bytes.
 */
function messageAnswerer({ settings, createServer, direct }: McpServing) {
  const { sessions, maxBodyBytes } = settings;
  // The SDK's handler for 2026-07-28 requests (2025-era ones come here, with our sessions); its factory
  // finds the request's budget by the forwarded Request it was handed.
  const budgets = new WeakMap<Request, AnswerBudget>();
  const modernFactory = (context: { requestInfo?: Request }) =>
    createServer((context.requestInfo && budgets.get(context.requestInfo)) ?? answerBudget(settings.maxAnswerBytes));
  const modern: Record<ResponseMode, McpHttpHandler> = {
    json: createMcpHandler(modernFactory, { legacy: 'reject', responseMode: 'json', maxRequestBodySize: maxBodyBytes }),
    sse: createMcpHandler(modernFactory, { legacy: 'reject', responseMode: 'sse', maxRequestBodySize: maxBodyBytes }),
  };

  /** The direct answer's bytes (see direct-answers.ts), or undefined to let the SDK answer. */
  const answerDirectly = ({ req, mode, parsed, headerVersion, budget }: ParsedRequest, isModern: boolean) => {
    if (mode !== 'json' || parsed.batch) return undefined;
    const request: DirectRequest = { messages: parsed.messages, protocolVersion: headerVersion, mcpMethod: header(req, 'mcp-method'), mcpName: header(req, 'mcp-name') };
    return directAnswer(request, isModern, direct(), budget);
  };

  /** What looks modern and is not answered directly: the SDK tells the eras apart, and answers 2026-07-28 itself. */
  async function answerModern(request: ParsedRequest): Promise<Answer> {
    const { mode, parsed } = request;
    const modernRequest = sdkRequest(request.req);
    if (await isLegacyRequest(modernRequest, parsed.body)) return answerLegacy(request);
    // 2026-07-28: no sessions; the SDK checks the envelope and the headers against it.
    const schemaProblem = toolCallProblem(request);
    if (schemaProblem !== undefined) return refusal(schemaProblem, request);
    budgets.set(modernRequest, request.budget);
    const answer = await fromResponse(await modern[mode].fetch(modernRequest, { parsedBody: parsed.body }));
    setHeader(answer, 'Cache-Control', mode === 'sse' ? 'no-store, no-transform' : 'no-store');
    return isDiscover(parsed.messages) ? listingEveryVersion(answer) : answer;
  }

  /** A 2025-era request: its session checked, then answered directly or by a fresh stateless SDK server. */
  function answerLegacy(request: ParsedRequest): Answer | Promise<Answer> {
    const { req, mode, parsed, headerVersion, sessionId } = request;
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

    const bytes = answerDirectly(request, false);
    if (bytes !== undefined) {
      // What finish() would set, in its order: no initialize is answered directly.
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (sessionId !== null) headers[SESSION_HEADER] = sessionId;
      headers['Cache-Control'] = 'no-store';
      return { status: 200, headers, body: { bytes } };
    }

    const finish = (answer: Answer): Answer => {
      if (answer.status >= 200 && answer.status < 300 && parsed.initialize) setHeader(answer, SESSION_HEADER, sessions.issue(negotiatedVersion(parsed.requestedVersion)));
      else if (sessionId !== null && !parsed.initialize) setHeader(answer, SESSION_HEADER, sessionId);
      // no-transform keeps an SSE stream from being held back by a compressing proxy (or our own compression).
      setHeader(answer, 'Cache-Control', mode === 'sse' ? 'no-store, no-transform' : 'no-store');
      return answer;
    };
    const schemaProblem = toolCallProblem(request);
    if (schemaProblem !== undefined) return finish(refusal(schemaProblem, request));
    return answerBySdkServer(req, mode, parsed.body, request.budget).then(finish);
  }

  /** A fresh stateless transport and server; nothing outlives the answer (an SSE stream ends once it is written), so nothing needs closing. */
  async function answerBySdkServer(req: IncomingMessage, mode: ResponseMode, body: unknown, budget: AnswerBudget): Promise<Answer> {
    const server = createServer(budget);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: mode === 'json' });
    await server.connect(transport);
    return fromResponse(await transport.handleRequest(sdkRequest(req), { parsedBody: body }));
  }

  return function answerMessages(req: IncomingMessage, mode: ResponseMode, body: string): Answer | Promise<Answer> {
    // As a TextDecoder reads it: a BOM is dropped.
    const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
    // The version a request is read under: its header, or else the one its session negotiated (clients before 2025-06-18 send no header).
    const headerVersion = header(req, 'mcp-protocol-version');
    const sessionId = header(req, 'mcp-session-id');
    const version = headerVersion ?? (sessionId === null ? undefined : sessions.protocolVersion(sessionId));
    const parsed = parseMessages(text, version !== undefined && isProtocolVersion(version) && allowsBatches(version) ? version : undefined);
    if (!parsed.ok) return jsonRpcError(400, parsed.code, parsed.message, { id: parsed.id });
    const request: ParsedRequest = { req, mode, parsed, headerVersion, sessionId, budget: answerBudget(settings.maxAnswerBytes) };
    if (!mayBeModern(headerVersion, parsed.messages)) return answerLegacy(request);
    const bytes = answerDirectly(request, true);
    if (bytes !== undefined) return { status: 200, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }, body: { bytes } };
    return answerModern(request);
  };
}
