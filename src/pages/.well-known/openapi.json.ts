import type { APIRoute } from 'astro';
import { loadSite } from '../../build/load-site.ts';
import { serializeJson } from '../../domain/datasets.ts';
import { openApiDocument } from '../../domain/openapi/document.ts';
import { hubPaths } from '../../domain/openapi/hub-paths.ts';
import { mcpPaths } from '../../domain/openapi/mcp-paths.ts';
import { searchPaths } from '../../domain/openapi/search-paths.ts';
import { widgetPaths } from '../../domain/openapi/widget-paths.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) => {
  const { business } = await loadSite(String(site));
  const serviceIds = business.services.map((service) => service.id);
  const paths = [hubPaths(String(site)), searchPaths({ serviceIds }), mcpPaths(), widgetPaths({ serviceIds })];
  return new Response(serializeJson(openApiDocument({ siteUrl: String(site), businessName: business.name }, ...paths)), {
    headers: { 'Content-Type': 'application/json' },
  });
};
