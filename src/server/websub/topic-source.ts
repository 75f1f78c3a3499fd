/** A topic's bytes as GET serves them: the pre-rendered file of this build, with its served type. */
import { readFile } from 'node:fs/promises';
import { contentTypeFor } from '../../build/static-manifest.ts';
import type { TopicPath } from '../../domain/site-urls.ts';
import { clientFile } from '../runtime/build-output.ts';
import type { TopicContent } from './hub.ts';

export async function readBuiltTopic(path: TopicPath): Promise<TopicContent> {
  return { body: await readFile(clientFile(path)), contentType: contentTypeFor(path) };
}
