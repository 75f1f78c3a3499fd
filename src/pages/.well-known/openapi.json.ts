import type { APIRoute } from 'astro';
import { loadSite } from '../../build/load-site.ts';
import { serializeJson } from '../../domain/datasets.ts';
import { openApiDocument } from '../../domain/openapi/document.ts';
import { hubPaths } from '../../domain/openapi/hub-paths.ts';
import { mcpPaths } from '../../domain/openapi/mcp-paths.ts';
import { searchPaths } from '../../domain/openapi/search-paths.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) => {
  const { business } = await loadSite(String(site));
  const paths = [hubPaths(String(site)), searchPaths({ serviceIds: business.services.map((service) => service.id) }), mcpPaths()];
  return new Response(serializeJson(openApiDocument({ siteUrl: String(site), businessName: business.name }, ...paths)), {
    headers: { 'Content-Type': 'application/json' },
  });
};
