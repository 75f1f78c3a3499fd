/**
 * The common requests answered as JSON by our own code, without an SDK server and
 * transport: a single `tools/call`, and the lists (tools, prompts, resources and
 * resource templates), in either era, and 2026-07-28's `server/discover`. The SDK's path
 * costs several times what running a tool does (a server per request, the whole
 * result stringified, a web Response made and read back; docs/mcp.md), while the
 * tools are ours and their results are made from validated data, the lists once
 * per build. Only a request the SDK would take as it is comes here: anything
 * unusual (a batch, SSE, tasks, progress, an unknown tool or version, headers that
 * disagree with the body) takes the SDK's path, which answers it properly. The
 * integration tests check that both paths give the same bytes.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  type Implementation,
  type JSONRPCMessage,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { ascii, joinBytes, toByteString, type ByteString } from '../../domain/byte-string.ts';
import { isModernVersion, isProtocolVersion, PROTOCOL_VERSIONS } from '../../domain/mcp-protocol-versions.ts';
import type { BodyPart } from '../http/answer.ts';
import { answerBudget, type AnswerBudget } from './answer-budget.ts';
import { keyNotAllowed } from './messages.ts';
import { schemaVerdicts } from './schema-verdicts.ts';
import type { ToolSet } from './tools/tool-set.ts';

/** The lists a server gives whole, by method: the member that holds the list, and its items. */
export type DirectLists = Readonly<Record<'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list', readonly [string, readonly unknown[]]>>;

/** What `server/discover` says besides the versions: the same for every request of a build. */
export interface DiscoverContent {
  readonly capabilities: ServerCapabilities;
  readonly instructions: string;
}

/** What the answers are made of: the build's tools and lists, and what a 2026-07-28 result says of the server. */
export interface DirectContext {
  readonly tools: ToolSet;
  readonly lists: DirectLists;
  readonly info: Implementation;
  readonly discover: DiscoverContent;
  /** How long a 2026-07-28 client may keep a list (see server.ts). */
  readonly listTtlMs: number;
}

/** The request as the direct path reads it: its messages and the protocol headers. */
export interface DirectRequest {
  readonly messages: readonly JSONRPCMessage[];
  readonly protocolVersion: string | null;
  readonly mcpMethod: string | null;
  readonly mcpName: string | null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const CALL_PARAMS = new Set(['name', 'arguments', '_meta']);
/** The 2025 era's `_meta` may carry anything (a JSON answer sends no progress); the envelope of 2026-07-28 only these. */
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
/** The SDK's classification of a message with its headers (see schema-verdicts.ts). */
const modernVerdicts = schemaVerdicts<boolean>();

const RESPONSE_START = ascii('{"result":');
const RESPONSE_ID = ascii(',"jsonrpc":"2.0","id":');
/** The response's end: its id, and the closing brace (a number's JSON is ASCII; a string's may not be). */
const idEnd = (id: unknown) => (typeof id === 'number' ? ascii(`${JSON.stringify(id)}}`) : toByteString(`${JSON.stringify(id)}}`));

/** Whether every key of `object` is one `allowed` takes. */
const onlyKeys = (object: Record<string, unknown>, allowed: (key: string) => boolean): boolean => keyNotAllowed(object, allowed) === undefined;
const isMeta = (key: string) => key === '_meta';
const isEnvelopeKey = (key: string) => ENVELOPE_KEYS.has(key);
const isCallParam = (key: string) => CALL_PARAMS.has(key);

/** The SDK's response layout: result, then jsonrpc and id. */
function response(result: readonly BodyPart[], id: unknown): BodyPart[] {
  return [RESPONSE_START, ...result, RESPONSE_ID, idEnd(id)];
}

/** Per list (one per build): `{"<member>":[…]` as JSON, open for the members that follow. */
function openListJson([member, items]: readonly [string, readonly unknown[]]): ByteString {
  return toByteString(`{${JSON.stringify(member)}:${JSON.stringify(items)}`);
}

/**
 * The `server/discover` result as the SDK makes it, open for the members that follow,
 * listing every version served (the 2025 ones, reached through initialize, too; the
 * SDK would list the 2026 ones only).
 */
function openDiscoverJson(discover: DiscoverContent): ByteString {
  const result = { supportedVersions: PROTOCOL_VERSIONS, capabilities: discover.capabilities, ...(discover.instructions ? { instructions: discover.instructions } : {}) };
  return toByteString(JSON.stringify(result).slice(0, -1));
}

/**
 * What is the same in every answer of a build to a list or to `server/discover`, per
 * era: the whole response but its id, made on the first request, kept as it is sent.
 * Keyed by the list's items (or the discover content), which the build's context holds.
 */
const preparedAnswers = new WeakMap<object, { legacy?: Buffer; modern?: Buffer }>();
function prepared(key: object, era: 'legacy' | 'modern', result: () => readonly ByteString[]): Buffer {
  let answers = preparedAnswers.get(key);
  if (answers === undefined) preparedAnswers.set(key, (answers = {}));
  return (answers[era] ??= Buffer.from(joinBytes([RESPONSE_START, ...result(), RESPONSE_ID]), 'latin1'));
}

const isListMethod = (method: unknown, lists: DirectLists): method is keyof DirectLists => typeof method === 'string' && Object.hasOwn(lists, method);

/** A 2026-07-28 result's closing members, after its own: what the SDK adds to every result, in its order. */
function modernTail(context: DirectContext, extra: string): ByteString {
  return toByteString(`,"resultType":"complete"${extra},"_meta":${JSON.stringify({ 'io.modelcontextprotocol/serverInfo': context.info })}}`);
}

/** A tool result's closing members in 2026-07-28, per build's context: the same for every call. */
const callTails = new WeakMap<DirectContext, ByteString>();
function callTail(context: DirectContext): ByteString {
  let tail = callTails.get(context);
  if (tail === undefined) callTails.set(context, (tail = modernTail(context, '')));
  return tail;
}

/** The closing members of a 2026-07-28 list (or discover) result: clients may keep it for the build's time to live. */
const listTail = (context: DirectContext) => modernTail(context, `,"ttlMs":${context.listTtlMs},"cacheScope":"public"`);

/** A result object given in parts, closed with `tail` in place of its last `}`. */
function closedWith(parts: readonly BodyPart[], tail: ByteString): BodyPart[] {
  const last = parts[parts.length - 1] as BodyPart;
  const open = typeof last === 'string' ? last.slice(0, -1) : last.subarray(0, -1);
  return [...parts.slice(0, -1), open as BodyPart, tail];
}

/**
 * Whether a message with a 2026-07-28 envelope is one the SDK would serve as it is:
 * its own classification says modern, the headers name exactly the body's version,
 * method and name, and the envelope holds the version and the client's capabilities only.
 */
function plainModernRequest(request: DirectRequest, message: Record<string, unknown>, params: Record<string, unknown>, name: string | undefined): boolean {
  const { protocolVersion, mcpMethod, mcpName } = request;
  if (protocolVersion === null || !isModernVersion(protocolVersion) || mcpMethod !== message.method) return false;
  if ((name ?? null) !== mcpName) return false;
  const meta = params._meta;
  if (!isPlainObject(meta) || !onlyKeys(meta, isEnvelopeKey)) return false;
  if (meta[PROTOCOL_VERSION_META_KEY] !== protocolVersion || !isPlainObject(meta[CLIENT_CAPABILITIES_META_KEY])) return false;
  return modernVerdicts.of(message, [protocolVersion, mcpMethod, mcpName], () => {
    const route = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: protocolVersion, mcpMethodHeader: mcpMethod ?? undefined, mcpNameHeader: mcpName ?? undefined, body: message });
    return route.kind === 'modern' && route.messageKind === 'request';
  });
}

/**
 * The JSON-RPC response body for the request, in byte strings that join to it, or
 * undefined to let the SDK answer it. `modern`: the request carries the 2026-07-28
 * envelope (the caller has told the eras apart); otherwise it is of the 2025 era and
 * its session has been checked.
 */
export function directAnswer(request: DirectRequest, modern: boolean, context: DirectContext, budget: AnswerBudget = answerBudget()): BodyPart[] | undefined {
  if (request.messages.length !== 1) return undefined;
  const message = request.messages[0] as Record<string, unknown>;
  if (!('id' in message)) return undefined;
  if (request.protocolVersion !== null && !isProtocolVersion(request.protocolVersion)) return undefined;
  const params = message.params ?? {};
  if (!isPlainObject(params)) return undefined;
  const { tools } = context;

  if (isListMethod(message.method, context.lists)) {
    // A cursor (or anything else) is the SDK's to check: every list here is given whole.
    if (!onlyKeys(params, isMeta)) return undefined;
    const list = context.lists[message.method];
    if (!modern) return [prepared(list[1], 'legacy', () => [openListJson(list), ascii('}')]), idEnd(message.id)];
    if (!plainModernRequest(request, message, params, undefined)) return undefined;
    return [prepared(list[1], 'modern', () => [openListJson(list), listTail(context)]), idEnd(message.id)];
  }

  if (message.method === 'server/discover') {
    if (!modern || !onlyKeys(params, isMeta) || !plainModernRequest(request, message, params, undefined)) return undefined;
    return [prepared(context.discover, 'modern', () => [openDiscoverJson(context.discover), listTail(context)]), idEnd(message.id)];
  }

  if (message.method !== 'tools/call' || !onlyKeys(params, isCallParam)) return undefined;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || !tools.has(name)) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  if (modern && !plainModernRequest(request, message, params, name)) return undefined;
  const result = tools.callToJson(name, args, budget);
  return response(modern ? closedWith(result, callTail(context)) : result, message.id);
}
