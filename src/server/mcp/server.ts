/**
 * One MCP server per request (both eras are served statelessly), over content
 * that is prepared once per process: tool definitions with their JSON Schemas,
 * resource texts, the catalog. Building one is a handful of handler registrations.
 *
 * The SDK's v2 line (`@modelcontextprotocol/server`) serves protocol 2026-07-28
 * natively (per-request `_meta` envelope, `server/discover`, `resultType`,
 * `ttlMs`/`cacheScope`) and the 2025 versions through `initialize`; the same
 * server definition answers both. The low-level `Server` rather than
 * `McpServer`: the tool list is precomputed (McpServer converts every schema on
 * each tools/list), an unknown tool must be a JSON-RPC error (McpServer makes it
 * a tool result), and a stateless server must not announce list changes it can
 * never send.
 */
import { Server, type Implementation, type ServerCapabilities } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AnswerBudget } from './answer-budget.ts';
import { INVALID_PARAMS, ProtocolError } from './protocol-error.ts';
import { PROTOCOL_VERSIONS } from '../../domain/mcp-protocol-versions.ts';
import { MAX_COMPLETIONS, type PromptSet } from './prompts.ts';
import type { ResourceSet } from './resources.ts';
import type { ToolSet } from './tools/tool-set.ts';
import type { DirectContext } from './direct-answers.ts';

export interface McpContent {
  readonly info: Implementation;
  readonly instructions: string;
  readonly tools: ToolSet;
  readonly resources: ResourceSet;
  readonly prompts: PromptSet;
  /** What direct-answers.ts answers from: the tools, the server's info, the lists' lifetime. */
  readonly direct: DirectContext;
}

/**
 * How long a 2026-07-28 client may keep a list or a read: what the server serves
 * changes only with a new build, and is the same for every client (`public`).
 * A deploy reaches a client within this time.
 */
export const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_HINT = { ttlMs: CACHE_TTL_MS, cacheScope: 'public' } as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Params taken as any object, to be checked by the handler: the SDK answers params that
 * break its schema with an internal error (-32603) listing zod issues; the MCP spec wants
 * invalid params (-32602), with a message that says which.
 */
const ANY_PARAMS = { params: z.looseObject({}) };

/** The request's params, checked to hold `name` as a string. */
function stringParam(method: string, params: unknown, name: string): string {
  const value = isObject(params) ? params[name] : undefined;
  if (typeof value !== 'string') {
    throw new ProtocolError(INVALID_PARAMS, `Invalid params for ${method}: ${name} must be a string, as in {"${name}": "…"}.`);
  }
  return value;
}

/** A list request's params: we list everything at once, so a cursor can only be passed on as a string. */
function checkListParams(method: string, params: Record<string, unknown>): void {
  if (params.cursor !== undefined && typeof params.cursor !== 'string') {
    throw new ProtocolError(
      INVALID_PARAMS,
      `Invalid params for ${method}: cursor must be a string (the nextCursor of an earlier answer); this server lists everything in one answer, so send none.`,
    );
  }
}

/** What the server offers: the same for every request (a stateless server announces no list changes). */
export const CAPABILITIES: ServerCapabilities = { tools: {}, resources: {}, prompts: {}, completions: {} };

/** The server for one request; tool results and resource texts are charged to `budget`. */
export function createMcpServer(content: McpContent, budget: AnswerBudget): Server {
  const { tools, resources, prompts } = content;
  const server = new Server(content.info, {
    // A copy: the SDK may add to what it is given.
    capabilities: structuredClone(CAPABILITIES),
    instructions: content.instructions,
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
    cacheHints: {
      'tools/list': CACHE_HINT,
      'resources/list': CACHE_HINT,
      'resources/templates/list': CACHE_HINT,
      'resources/read': CACHE_HINT,
      'prompts/list': CACHE_HINT,
      'server/discover': CACHE_HINT,
    },
  });
  // The lists take any params and check the cursor themselves: the SDK's own check answers a bad one with an internal error.
  const list = <T>(method: string, answer: () => T) => (params: Record<string, unknown>) => {
    checkListParams(method, params);
    return answer();
  };
  server.setRequestHandler('tools/list', ANY_PARAMS, list('tools/list', () => ({ tools: [...tools.list] })));
  // The route has checked the params in words (toolCallParamsProblem) before the SDK's schema and this handler run.
  server.setRequestHandler('tools/call', ANY_PARAMS, (params) =>
    tools.call(params.name as string, params.arguments as Record<string, unknown> | undefined, budget),
  );
  server.setRequestHandler('resources/list', ANY_PARAMS, list('resources/list', () => ({ resources: [...resources.list] })));
  server.setRequestHandler('resources/templates/list', ANY_PARAMS, list('resources/templates/list', () => ({ resourceTemplates: [...resources.templates] })));
  server.setRequestHandler('prompts/list', ANY_PARAMS, list('prompts/list', () => ({ prompts: [...prompts.list] })));
  server.setRequestHandler('prompts/get', ANY_PARAMS, (params) => {
    const args = params.arguments ?? {};
    if (!isObject(args)) throw new ProtocolError(INVALID_PARAMS, 'Invalid params for prompts/get: arguments must be an object of strings.');
    return prompts.get(stringParam('prompts/get', params, 'name'), args);
  });
  server.setRequestHandler('completion/complete', ANY_PARAMS, (params) => {
    const { ref, argument } = params;
    if (!isObject(ref) || typeof ref.type !== 'string' || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      throw new ProtocolError(
        INVALID_PARAMS,
        'Invalid params for completion/complete: give ref ({"type":"ref/prompt","name":…} or {"type":"ref/resource","uri":…}) and argument ({"name":…,"value":…}).',
      );
    }
    const known =
      (ref.type === 'ref/prompt' && prompts.list.some((prompt) => prompt.name === ref.name)) ||
      (ref.type === 'ref/resource' && resources.templates.some((template) => template.uriTemplate === ref.uri));
    if (!known) {
      throw new ProtocolError(INVALID_PARAMS, `Invalid params for completion/complete: ${JSON.stringify(ref).slice(0, 120)} names no prompt or resource template of this server.`);
    }
    const values = prompts.complete(ref as { type: string; name?: string; uri?: string }, argument.name, argument.value);
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
  });
  server.setRequestHandler('resources/read', ANY_PARAMS, (params) => resources.read(stringParam('resources/read', params, 'uri'), budget));
  return server;
}
