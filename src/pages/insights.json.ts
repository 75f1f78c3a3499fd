import type { APIRoute } from 'astro';
import { loadInsights } from '../build/load-site.ts';
import { serializeJson } from '../domain/datasets.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(serializeJson(await loadInsights(String(site))), { headers: { 'Content-Type': 'application/json' } });
