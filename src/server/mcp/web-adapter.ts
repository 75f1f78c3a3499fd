/**
 * The MCP endpoint for a web Request, as Astro's route (src/pages/mcp.ts) gets
 * it; the embedded server uses node-adapter.ts instead. Same endpoint, same answers.
 */
import { readRequestBody } from '@modelcontextprotocol/server';
import { toResponse } from '../http/answer.ts';
import { ClientGone, type McpAnswer, type McpRequest } from './endpoint.ts';
import { mcpEndpoint } from './index.ts';

function webRequest(request: Request): McpRequest {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    async text(maxBytes) {
      const read = await readRequestBody(request, maxBytes).catch(() => {
        throw new ClientGone('the client closed the connection before the request body ended');
      });
      return read.tooLarge ? undefined : read.text;
    },
    url: request.url,
    headerPairs: () => request.headers,
  };
}

export async function answerWebMcp(request: Request): Promise<Response> {
  const answer = await mcpEndpoint()(webRequest(request)).catch((error: unknown) => {
    // Nobody is left to read an answer; the route must still return one.
    if (error instanceof ClientGone) return { status: 400, headers: {} } as McpAnswer;
    throw error;
  });
  return answer.stream ? new Response(answer.stream, { status: answer.status, headers: answer.headers }) : toResponse(answer);
}
