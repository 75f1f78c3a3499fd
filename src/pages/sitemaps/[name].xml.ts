import type { APIRoute, GetStaticPaths } from 'astro';
import { loadSitemaps } from '../../build/load-site.ts';

export const prerender = true;

/** One file a sitemap index names: /sitemaps/pages.xml, /sitemaps/reviews-1.xml, … */
export const getStaticPaths = (async () => {
  const [, ...files] = await loadSitemaps(import.meta.env.SITE);
  return files.map(({ path, xml }) => ({ params: { name: path.replace(/^\/sitemaps\//, '').replace(/\.xml$/, '') }, props: { xml } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response((props as { xml: string }).xml, { headers: { 'Content-Type': 'application/xml' } });
