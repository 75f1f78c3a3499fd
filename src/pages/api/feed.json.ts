import type { APIRoute } from 'astro';
import { loadSite } from '../../build/load-site.ts';
import { serializeJson } from '../../domain/datasets.ts';
import { jsonFeed } from '../../domain/feeds/json-feed.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(serializeJson(jsonFeed(await loadSite(String(site)))), {
    headers: { 'Content-Type': 'application/json' },
  });
