/**
 * A topic as GET serves it: the pre-rendered file of the served build, with its
 * served type and the digest its manifest recorded, its bytes read only if the hub
 * needs them (someone follows the topic).
 */
import { contentTypeFor } from '../../build/static-manifest.ts';
import type { TopicPath } from '../../domain/site-urls.ts';
import { servedBuild } from '../builds/served-build.ts';
import type { TopicContent } from './hub.ts';

export async function readServedTopic(path: TopicPath): Promise<TopicContent> {
  const build = servedBuild();
  const entry = build.manifest.files[path];
  if (!entry) throw new Error(`build ${build.id} has no ${path}`);
  return { hash: entry.hash, body: () => build.bytes(path), contentType: contentTypeFor(path) };
}
