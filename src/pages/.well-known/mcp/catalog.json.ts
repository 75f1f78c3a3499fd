import type { APIRoute } from 'astro';
import { serializeJson } from '../../../domain/datasets.ts';
import { mcpCatalog } from '../../../domain/mcp-server-card.ts';

export const prerender = true;

export const GET: APIRoute = ({ site }) => new Response(serializeJson(mcpCatalog(String(site))), { headers: { 'Content-Type': 'application/json' } });
