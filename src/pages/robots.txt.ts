import type { APIRoute } from 'astro';
import { robotsTxt } from '../domain/sitemap.ts';
import { siteUrls } from '../domain/site-urls.ts';

export const prerender = true;

export const GET: APIRoute = ({ site }) => new Response(robotsTxt(siteUrls(String(site))), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
