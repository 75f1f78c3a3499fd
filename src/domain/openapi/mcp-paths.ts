/** OpenAPI description of the MCP endpoint: JSON-RPC objects over POST (streamable HTTP). */
import { PROTOCOL_VERSIONS, protocolVersionsText } from '../mcp-protocol-versions.ts';
import { ref } from './components.ts';
import { AI_CATALOG_TYPE, SERVER_CARD_SCHEMA, SERVER_CARD_TYPE } from '../mcp-server-card.ts';
import { conditionalParameters, notAcceptable, notModified, refusedMethod, validatorHeaders, type PathItems } from './shared.ts';

const SESSION_ID = 'Mcp-Session-Id';

const jsonRpcError = (description: string) => ({ description, content: { 'application/json': { schema: ref('JsonRpcError') } } });

const examples = {
  initialize: {
    summary: 'Start a session',
    value: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'my-agent', version: '1.0.0' } },
    },
  },
  toolsList: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
  search: {
    summary: 'Call search_reviews',
    value: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_reviews', arguments: { rating: 5, limit: 3 } } },
  },
};

/** The server-card extension's catalog (SEP-2127): where a site lists its MCP servers' cards. */
const catalogSchema = {
  type: 'object',
  required: ['specVersion', 'entries'],
  properties: {
    specVersion: { type: 'string' },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['identifier', 'type', 'url'],
        properties: { identifier: { type: 'string' }, type: { const: SERVER_CARD_TYPE }, url: { type: 'string', format: 'uri' } },
      },
    },
  },
};

/** A pre-rendered discovery document: conditional GET, its media type. */
function discoveryDocument(operationId: string, summary: string, mediaType: string, schema: Record<string, unknown>) {
  return {
    get: {
      operationId,
      summary,
      tags: ['mcp'],
      parameters: conditionalParameters,
      responses: { '200': { description: summary, headers: validatorHeaders, content: { [mediaType]: { schema } } }, '304': notModified, '406': notAcceptable },
    },
  };
}

export function mcpPaths(): PathItems {
  return {
    '/mcp/server-card': discoveryDocument(
      'getMcpServerCard',
      'The MCP server card (SEP-2127): name, title, description, version and the streamable-http remote with its protocol versions',
      SERVER_CARD_TYPE,
      { type: 'object', description: `Valid by ${SERVER_CARD_SCHEMA} (its $schema); the same name, version and description as /server.json.` },
    ),
    '/.well-known/mcp/catalog.json': discoveryDocument('getMcpCatalog', "The site's MCP catalog: one entry, this server's card", 'application/json', catalogSchema),
    '/.well-known/ai-catalog.json': discoveryDocument('getAiCatalog', 'The same catalog under the name the extension now gives it (an AI Catalog)', AI_CATALOG_TYPE, catalogSchema),
    '/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'MCP server (streamable HTTP): read-only tools and resources over the reviews',
        description:
          'Send one JSON-RPC 2.0 message per POST. `initialize` answers with an `Mcp-Session-Id` header; send it back on later requests ' +
          '(requests without one are served too; an expired or unknown id gets 404, then initialize again). ' +
          'Tools: get_business, search_reviews (the same parameters and body as GET /api/reviews/search), get_reviews_since, get_review, ' +
          'get_insights; resources: the datasets and `reviews://review/{id}`. Answers are JSON unless the client accepts only ' +
          'text/event-stream. GET and DELETE are refused with 405 (no standalone stream; sessions expire after 24 hours). ' +
          `Protocol versions: ${protocolVersionsText()}. 2026-07-28 is stateless: no initialize and no session; every request carries ` +
          'its version and client capabilities in params._meta and the MCP-Protocol-Version, Mcp-Method (and Mcp-Name) headers.',
        tags: ['mcp'],
        parameters: [
          {
            name: SESSION_ID,
            in: 'header',
            required: false,
            description: 'The session id that initialize returned.',
            schema: { type: 'string' },
          },
          {
            name: 'MCP-Protocol-Version',
            in: 'header',
            required: false,
            description: 'The negotiated protocol version, on requests after initialize; on every 2026-07-28 request.',
            schema: { type: 'string', enum: [...PROTOCOL_VERSIONS] },
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('JsonRpcRequest'), examples } },
        },
        responses: {
          '200': {
            description: 'The JSON-RPC response: a result, or an error such as an unknown method or invalid params.',
            headers: { [SESSION_ID]: { description: 'On the answer to initialize: the new session id.', schema: { type: 'string' } } },
            content: {
              'application/json': { schema: { oneOf: [ref('JsonRpcResult'), ref('JsonRpcError')] } },
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description: 'When the client accepts only text/event-stream: one `message` event whose data is the JSON-RPC response.',
                },
              },
            },
          },
          '202': { description: 'A notification or response was accepted; no body.' },
          '400': jsonRpcError('The body is not JSON (-32700) or not a JSON-RPC message (-32600), or MCP-Protocol-Version is unsupported.'),
          '403': jsonRpcError('The Host or Origin header is not allowed (DNS-rebinding protection).'),
          '404': jsonRpcError('The Mcp-Session-Id is unknown or expired (-32001): initialize again.'),
          '406': jsonRpcError('Accept allows neither application/json nor text/event-stream.'),
          '413': jsonRpcError('The body is larger than 256 KiB.'),
          '415': jsonRpcError('The body is not sent as application/json, or it carries a Content-Encoding other than identity (send it uncompressed).'),
        },
      },
      get: { ...refusedMethod('getMcpStream', 'Not allowed: no standalone SSE stream', 'POST', jsonRpcError('Only POST is allowed: this server opens no standalone stream.')), tags: ['mcp'] },
      delete: { ...refusedMethod('deleteMcpSession', 'Not allowed: sessions expire on their own', 'POST', jsonRpcError('Only POST is allowed: sessions expire after 24 hours; simply stop using one.')), tags: ['mcp'] },
    },
  };
}
