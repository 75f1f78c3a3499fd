import type { APIRoute } from 'astro';
import packageJson from '../../../package.json' with { type: 'json' };
import { loadSite } from '../../build/load-site.ts';
import { serializeJson } from '../../domain/datasets.ts';
import { serverCard, SERVER_CARD_TYPE } from '../../domain/mcp-server-card.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) => {
  const { business } = await loadSite(String(site));
  return new Response(serializeJson(serverCard({ siteUrl: String(site), businessName: business.name, version: packageJson.version })), {
    headers: { 'Content-Type': SERVER_CARD_TYPE },
  });
};
