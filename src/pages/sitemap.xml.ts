import type { APIRoute } from 'astro';
import { loadSitemaps } from '../build/load-site.ts';

export const prerender = true;

/** The sitemap index: it names the sitemap of the pages and those of the review pages (src/domain/sitemap.ts). */
export const GET: APIRoute = async ({ site }) => {
  const [index] = await loadSitemaps(String(site));
  return new Response(index?.xml, { headers: { 'Content-Type': 'application/xml' } });
};
