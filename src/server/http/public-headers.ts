/** Headers every public GET carries, by kind of resource. */
import { siteUrls, TOPIC_PATHS, type SiteUrls } from '../../domain/site-urls.ts';

export const CACHE_DOCUMENT = 'public, max-age=60, s-maxage=300, stale-while-revalidate=86400';
export const CACHE_QUERY = 'public, max-age=60, s-maxage=60';
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

export function cacheControlFor(urlPath: string): string {
  return urlPath.startsWith('/_astro/') ? CACHE_IMMUTABLE : CACHE_DOCUMENT;
}

/** The addresses of the last site asked for: a server serves one, and a search answer asks on every request. */
let lastSite: { siteUrl: string; urls: SiteUrls } | undefined;
function urlsOf(siteUrl: string): SiteUrls {
  if (lastSite?.siteUrl !== siteUrl) lastSite = { siteUrl, urls: siteUrls(siteUrl) };
  return lastSite.urls;
}

/** `Link` for a path: hub and self on the WebSub topics (Atom included), the OpenAPI document on every document of the API and the home page. */
export function linkHeaderFor(urlPath: string, siteUrl: string): string | undefined {
  const urls = urlsOf(siteUrl);
  const serviceDesc = `<${urls.openapi}>; rel="service-desc"; type="application/json"`;
  if ((TOPIC_PATHS as readonly string[]).includes(urlPath)) {
    const self = `${siteUrl.replace(/\/+$/, '')}${urlPath}`;
    return [`<${urls.hub}>; rel="hub"`, `<${self}>; rel="self"`, serviceDesc].join(', ');
  }
  if (urlPath === '/index.html' || urlPath === '/insights.json' || urlPath.startsWith('/api/')) return serviceDesc;
  return undefined;
}
