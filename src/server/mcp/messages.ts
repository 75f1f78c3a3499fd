/**
 * Reading a POST body as JSON-RPC messages before the SDK sees it, so that every
 * malformed body gets the right JSON-RPC error with a message that says what to
 * fix: not JSON → -32700 (parse error); JSON but not a JSON-RPC 2.0 message →
 * -32600 (invalid request). Both with HTTP 400.
 */
import { isInitializeRequest, parseJSONRPCMessage, specTypeSchemas, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { INVALID_REQUEST, PARSE_ERROR, type JsonRpcId } from './http-responses.ts';
import { schemaVerdicts } from './schema-verdicts.ts';
import { issuesInWords } from './zod-issues-in-words.ts';

/**
 * Most messages a batch may hold. Batches exist only before protocol version
 * 2025-06-18 (the endpoint refuses them otherwise); ten is plenty for a client of
 * those versions and keeps one request from asking for the work of hundreds.
 */
export const MAX_BATCH = 10;

export type ParsedMessages =
  | {
      ok: true;
      body: unknown;
      messages: JSONRPCMessage[];
      /** Whether the body was a JSON-RPC batch (an array), even of one message. */
      batch: boolean;
      initialize: boolean;
      /** The protocol version an initialize request asks for. */
      requestedVersion: unknown;
      id: JsonRpcId;
    }
  | { ok: false; code: number; message: string; id: JsonRpcId };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown) => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);
const isMember = (key: string) => MEMBERS.has(key);

/** The first own key of `object` that `allowed` does not take, or undefined; walked without making an array of the keys (it runs for every message). */
export function keyNotAllowed(object: Record<string, unknown>, allowed: (key: string) => boolean): string | undefined {
  for (const key in object) if (Object.hasOwn(object, key) && !allowed(key)) return key;
  return undefined;
}
/** What the SDK's schema says of a message's shape (see schema-verdicts.ts). */
const schemaProblems = schemaVerdicts<string | undefined>();

/** What is wrong with one message, in words, or undefined if it is a valid JSON-RPC 2.0 message. */
function problemOf(message: unknown): string | undefined {
  if (!isObject(message)) return 'a message must be a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be the string "2.0"';
  const unknown = keyNotAllowed(message, isMember);
  if (unknown !== undefined) return `${JSON.stringify(unknown)} is not a member of a JSON-RPC message`;
  if ('id' in message && !isId(message.id)) return 'id must be a string or a whole number';
  if ('method' in message) {
    if (typeof message.method !== 'string' || message.method === '') return 'method must be a non-empty string';
    if ('params' in message && !isObject(message.params)) return 'params must be an object';
  } else if (!('result' in message || 'error' in message)) {
    return 'a request needs a method (and an id); a response needs a result or an error';
  }
  return schemaProblems.of(message, [], () => {
    try {
      parseJSONRPCMessage(message);
      return undefined;
    } catch (error) {
      const words = issuesInWords((error as { issues?: unknown }).issues);
      return words === undefined ? 'it is not a valid JSON-RPC 2.0 message' : `it is not a valid JSON-RPC 2.0 message: ${words}`;
    }
  });
}

/**
 * `batchVersion` is the protocol version a batch would be read under, when the
 * client's version allows batches (before 2025-06-18); undefined refuses them.
 */
export function parseMessages(text: string, batchVersion?: string): ParsedMessages {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? ` (${error.message})` : '';
    return { ok: false, code: PARSE_ERROR, message: `Parse error: the request body is not valid JSON${detail}.`, id: null };
  }
  const list = Array.isArray(body) ? body : [body];
  const id = !Array.isArray(body) && isObject(body) && isId(body.id) ? (body.id as string | number) : null;
  if (Array.isArray(body) && batchVersion === undefined) {
    return {
      ok: false,
      code: INVALID_REQUEST,
      message:
        'Invalid Request: JSON-RPC batches are not part of MCP since protocol version 2025-06-18, and this request is not ' +
        'from a session of an older version; send one message per request.',
      id,
    };
  }
  if (list.length === 0 || list.length > MAX_BATCH) {
    return {
      ok: false,
      code: INVALID_REQUEST,
      message: `Invalid Request: a batch (protocol version ${batchVersion}) must hold 1 to ${MAX_BATCH} messages, not ${list.length}; send the others in separate requests.`,
      id,
    };
  }
  for (let index = 0; index < list.length; index++) {
    const problem = problemOf(list[index]);
    if (problem !== undefined) {
      const where = Array.isArray(body) ? ` (message ${index + 1} of the batch)` : '';
      return {
        ok: false,
        code: INVALID_REQUEST,
        message: `Invalid Request${where}: ${problem}. Send a JSON-RPC 2.0 object such as {"jsonrpc":"2.0","id":1,"method":"tools/list"}.`,
        id,
      };
    }
  }
  const messages = list as JSONRPCMessage[];
  const initializeRequest = messages.find((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message));
  const requestedVersion = (initializeRequest as { params?: { protocolVersion?: unknown } } | undefined)?.params?.protocolVersion;
  return { ok: true, body, messages, batch: Array.isArray(body), initialize: initializeRequest !== undefined, requestedVersion, id };
}

const INITIALIZE_EXAMPLE = '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"my-client","version":"1.0"}}';

/**
 * What is wrong with the params of an initialize request, in words, or undefined when
 * initialize takes them (or the message is no initialize request). The SDK answers bad
 * ones with an internal error (-32603) whose message is its zod issues as JSON.
 */
export function initializeParamsProblem(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || message.method !== 'initialize' || !('id' in message) || isInitializeRequest(message)) return undefined;
  const params: unknown = message.params;
  const clientInfo = isObject(params) ? params.clientInfo : undefined;
  const problem = !isObject(params)
    ? 'params must be an object'
    : typeof params.protocolVersion !== 'string'
      ? 'protocolVersion must be a string'
      : !isObject(params.capabilities)
        ? 'capabilities must be an object'
        : !isObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string'
          ? 'clientInfo must be an object with name and version strings'
          : 'they are not what initialize takes';
  return `Invalid params for initialize: ${problem}. Send params such as ${INITIALIZE_EXAMPLE}.`;
}


/**
 * What is wrong with the params of a tools/call request, in words, or undefined when
 * they are fine (or the message is no tools/call request). The SDK checks them against
 * its schema before any handler of ours and refuses a bad one with the zod issues as
 * JSON for a message; its schema (public, as `specTypeSchemas`) is asked here first.
 * Asked only of a request the SDK is to answer (the direct answers take only params they know).
 */
export function toolCallParamsProblem(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  const params: unknown = message.params;
  const name = isObject(params) ? params.name : undefined;
  if (typeof name !== 'string') return 'Invalid params for tools/call: name must be a string, as in {"name": "…"}.';
  const args = isObject(params) ? params.arguments : undefined;
  if (args !== undefined && !isObject(args)) return 'Invalid params for tools/call: arguments must be an object.';
  const checked = specTypeSchemas.CallToolRequest['~standard'].validate(message);
  if (checked instanceof Promise || !checked.issues) return undefined;
  const words = issuesInWords(JSON.stringify(checked.issues));
  return words === undefined ? undefined : `Invalid params for tools/call: ${words}.`;
}
