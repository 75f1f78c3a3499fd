/** The hub's topics: the three documents whose changes it pushes, by public URL. */
import { siteUrls, TOPIC_PATHS, type TopicPath } from '../site-urls.ts';

export interface Topic {
  url: string;
  path: TopicPath;
}

export function hubTopics(siteUrl: string): Topic[] {
  const base = siteUrl.replace(/\/+$/, '');
  return TOPIC_PATHS.map((path) => ({ url: `${base}${path}`, path }));
}

export function hubUrl(siteUrl: string): string {
  return siteUrls(siteUrl).hub;
}
