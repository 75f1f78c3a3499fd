import type { APIRoute } from 'astro';
import { loadSite } from '../build/load-site.ts';
import { badgeSvg } from '../domain/widget/badge.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) => {
  const { business, aggregate } = await loadSite(String(site));
  return new Response(badgeSvg({ businessName: business.name, ratingValue: aggregate.rating_value, reviewCount: aggregate.review_count }), {
    headers: { 'Content-Type': 'image/svg+xml' },
  });
};
