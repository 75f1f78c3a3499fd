import type { APIRoute } from 'astro';
import { loadSite } from '../build/load-site.ts';
import { atomFeed } from '../domain/feeds/atom.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(atomFeed(await loadSite(String(site))), { headers: { 'Content-Type': 'application/atom+xml' } });
