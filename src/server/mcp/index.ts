/**
 * The MCP endpoint's handler, one per process: the embedded server (run from
 * source) and Astro's bundle each hold a copy of these modules, and both must
 * sign and check session ids with the same key.
 */
import { getMcpContent } from './content.ts';
import { createMcpHandler, type McpHandler } from './endpoint.ts';
import { createMcpServer } from './server.ts';
import { getMcpSettings } from './settings.ts';

const SLOT = Symbol.for('reviews-service.mcp-handler');
type Slot = { [SLOT]?: McpHandler };

export function mcpHandler(): McpHandler {
  const slot = globalThis as Slot;
  slot[SLOT] ??= createMcpHandler(getMcpSettings(), () => createMcpServer(getMcpContent()), () => getMcpContent().tools);
  return slot[SLOT];
}
