/** A topic's bytes as GET serves them: the pre-rendered file of the served build, with its served type. */
import { contentTypeFor } from '../../build/static-manifest.ts';
import type { TopicPath } from '../../domain/site-urls.ts';
import { servedBuild } from '../builds/served-build.ts';
import type { TopicContent } from './hub.ts';

export async function readServedTopic(path: TopicPath): Promise<TopicContent> {
  return { body: servedBuild().bytes(path), contentType: contentTypeFor(path) };
}
