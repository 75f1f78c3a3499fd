/**
 * One MCP server per request (the transport is stateless), over content that is
 * prepared once per process: tool definitions with their JSON Schemas, resource
 * texts, the catalog. Building one is a handful of handler registrations.
 *
 * The low-level `Server` rather than `McpServer`: the tool list is precomputed
 * (McpServer converts every schema on each tools/list), an unknown tool must be
 * a JSON-RPC error (McpServer makes it a tool result), and a stateless server
 * must not announce list changes it can never send.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Implementation,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnswerBudget } from './answer-budget.ts';
import { INVALID_PARAMS, ProtocolError } from './protocol-error.ts';
import type { ResourceSet } from './resources.ts';
import type { ToolSet } from './tools/tool-set.ts';

export interface McpContent {
  readonly info: Implementation;
  readonly instructions: string;
  readonly tools: ToolSet;
  readonly resources: ResourceSet;
}

/**
 * The server only validates JSON Schemas for requests it would send to a client
 * (elicitation), which it never does; but it builds an Ajv instance unless given
 * one, which would cost more than the rest of a request. One serves them all.
 */
const schemaValidator = new AjvJsonSchemaValidator();

type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> }>;

/**
 * Registers a handler whose params are checked here: the SDK would turn a
 * request that breaks its schema into an internal error (-32603); the MCP spec
 * wants invalid params (-32602), with a message that says which.
 */
/** A request of this method with any params, to check them ourselves; made once (building a zod schema is not cheap). */
const looseRequests = new Map<string, RequestSchema>();
function anyParams(method: string): RequestSchema {
  let schema = looseRequests.get(method);
  if (!schema) looseRequests.set(method, (schema = z.looseObject({ method: z.literal(method) })));
  return schema;
}

function handle<S extends RequestSchema>(server: Server, schema: S, handler: (request: z.output<S>) => ServerResult): void {
  const method = schema.shape.method.value;
  server.setRequestHandler(anyParams(method), (request) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) throw new ProtocolError(INVALID_PARAMS, `Invalid params for ${method}: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
    return handler(parsed.data);
  });
}

/** The server for one request; tool results and resource texts are charged to `budget`. */
export function createMcpServer(content: McpContent, budget: AnswerBudget): Server {
  const { tools, resources } = content;
  const server = new Server(content.info, {
    capabilities: { tools: {}, resources: {} },
    instructions: content.instructions,
    jsonSchemaValidator: schemaValidator,
  });
  handle(server, ListToolsRequestSchema, () => ({ tools: [...tools.list] }));
  // The SDK's Server checks tools/call params itself (and answers -32602) before this runs.
  server.setRequestHandler(anyParams('tools/call'), (request) => {
    const { params } = request as z.output<typeof CallToolRequestSchema>;
    return tools.call(params.name, params.arguments, budget);
  });
  handle(server, ListResourcesRequestSchema, () => ({ resources: [...resources.list] }));
  handle(server, ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...resources.templates] }));
  handle(server, ReadResourceRequestSchema, (request) => resources.read(request.params.uri, budget));
  return server;
}
