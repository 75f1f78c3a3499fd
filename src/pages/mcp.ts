import type { APIRoute } from 'astro';
import { answerWebMcp } from '../server/mcp/web-adapter.ts';

export const prerender = false;

/**
 * POST /mcp, the MCP endpoint (streamable HTTP); other methods are answered there
 * too (405, CORS preflight). The embedded server answers /mcp itself with the
 * same handler (src/server/mcp/node-adapter.ts); this route serves other hosts.
 */
export const ALL: APIRoute = ({ request }) => answerWebMcp(request);
