import type { APIRoute } from 'astro';
import { loadSite } from '../build/load-site.ts';
import { reviewsDataset, serializeReviewsDataset } from '../domain/datasets.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(serializeReviewsDataset(reviewsDataset(await loadSite(String(site)))), {
    headers: { 'Content-Type': 'application/json' },
  });
