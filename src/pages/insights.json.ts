import type { APIRoute } from 'astro';
import { loadSite } from '../build/load-site.ts';
import { serializeJson } from '../domain/datasets.ts';
import { insightsDocument } from '../domain/insights/document.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(serializeJson(insightsDocument(await loadSite(String(site)))), {
    headers: { 'Content-Type': 'application/json' },
  });
