/** Every public address of the site, derived once from its base URL. */
export interface SiteUrls {
  home: string;
  reviews: string;
  insights: string;
  jsonFeed: string;
  atomFeed: string;
  hub: string;
  openapi: string;
  mcp: string;
  serverJson: string;
  search: string;
  since: string;
  /** The pages for people: the review browser, the insights page, the page for developers. */
  reviewBrowser: string;
  insightsPage: string;
  developersPage: string;
  /** The page of one review: its address for people, feeds and structured data. */
  reviewPage(id: string): string;
}

/** The path of one review's page; review ids are lower-case letters, digits and hyphens. */
export function reviewPagePath(id: string): string {
  return `/reviews/${encodeURIComponent(id)}`;
}

export function siteUrls(siteUrl: string): SiteUrls {
  const base = siteUrl.replace(/\/+$/, '');
  return {
    home: `${base}/`,
    reviews: `${base}/reviews.json`,
    insights: `${base}/insights.json`,
    jsonFeed: `${base}/api/feed.json`,
    atomFeed: `${base}/feed.xml`,
    hub: `${base}/api/websub/hub`,
    openapi: `${base}/.well-known/openapi.json`,
    mcp: `${base}/mcp`,
    serverJson: `${base}/server.json`,
    search: `${base}/api/reviews/search`,
    since: `${base}/api/reviews/since`,
    reviewBrowser: `${base}/reviews`,
    insightsPage: `${base}/insights`,
    developersPage: `${base}/developers`,
    reviewPage: (id) => `${base}${reviewPagePath(id)}`,
  };
}

/** The three WebSub topics, by the path each is served at. */
export const TOPIC_PATHS = ['/feed.xml', '/api/feed.json', '/reviews.json'] as const;
export type TopicPath = (typeof TOPIC_PATHS)[number];
