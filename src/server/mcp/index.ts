/**
 * The MCP endpoint, one per process: the embedded server (run from source) and
 * Astro's bundle each hold a copy of these modules, and both must sign and check
 * session ids with the same key.
 */
import { getMcpContent } from './content.ts';
import { createMcpEndpoint, type McpEndpoint } from './endpoint.ts';
import { createMcpServer } from './server.ts';
import { getMcpSettings } from './settings.ts';

const SLOT = Symbol.for('reviews-service.mcp-endpoint');
type Slot = { [SLOT]?: McpEndpoint };

export function mcpEndpoint(): McpEndpoint {
  const slot = globalThis as Slot;
  slot[SLOT] ??= createMcpEndpoint(getMcpSettings(), (budget) => createMcpServer(getMcpContent(), budget), () => getMcpContent().tools);
  return slot[SLOT];
}
