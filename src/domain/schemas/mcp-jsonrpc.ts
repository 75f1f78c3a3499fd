/**
 * JSON-RPC 2.0 as POST /mcp carries it, for the OpenAPI description. The MCP
 * endpoint itself is validated by the MCP SDK's own schemas; these describe the
 * envelope an HTTP-level reader sees.
 */
import { z } from 'zod';

const requestId = z.union([z.string(), z.int()]);

export const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: requestId.optional().meta({ description: 'Any string or whole number; absent in a notification, which gets no answer (202).' }),
    method: z.string().meta({ description: 'An MCP method.', examples: ['initialize', 'tools/list', 'tools/call', 'resources/read'] }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'JsonRpcRequest', description: 'A JSON-RPC 2.0 request or notification carrying an MCP message.' });

export const jsonRpcResultSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: requestId,
    result: z.record(z.string(), z.unknown()).meta({ description: 'The MCP result, e.g. {tools: [...]} or {content, structuredContent}.' }),
  })
  .meta({ id: 'JsonRpcResult', description: 'A successful JSON-RPC 2.0 response.' });

export const jsonRpcErrorSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: requestId.nullable().meta({ description: 'The request id, or null when the request could not be read.' }),
    error: z.object({
      code: z.int().meta({
        description:
          '-32700 parse error, -32600 invalid request (a batch included), -32601 unknown method, -32602 invalid params (an unknown tool included) ' +
          'and an unknown resource, -32010 answer too large, -32001 unknown or expired session, -32000 refused by the transport (Accept, Content-Type, size, Host/Origin, method).',
      }),
      message: z.string().meta({ description: 'What went wrong and what to do instead.' }),
      data: z.unknown().optional(),
    }),
  })
  .meta({ id: 'JsonRpcError', description: 'A JSON-RPC 2.0 error response.' });
