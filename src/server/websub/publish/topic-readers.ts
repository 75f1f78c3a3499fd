/**
 * Where `npm run publish` reads the three topics from: the new build (OUT_DIR),
 * the snapshot of what was last published (PUBLISH_STATE_DIR) or a live site
 * (`--against URL`). A topic that is absent reads as undefined.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, type StaticManifest } from '../../../build/static-manifest.ts';
import { TOPIC_PATHS, type TopicPath } from '../../../domain/site-urls.ts';

export type TopicBytes = Map<TopicPath, Buffer | undefined>;

export interface Build {
  siteUrl: string;
  topics: TopicBytes;
}

const readIfPresent = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);

export function readBuild(outDir: string): Build {
  const manifestFile = path.join(outDir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw new Error(`There is no build in ${outDir}; run \`npm run build\` first.`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as StaticManifest;
  const topics: TopicBytes = new Map(TOPIC_PATHS.map((p) => [p, readIfPresent(path.join(outDir, 'client', p))]));
  return { siteUrl: manifest.siteUrl.replace(/\/+$/, ''), topics };
}

/** The snapshot keeps each topic's bytes under its URL path. */
export function readSnapshot(stateDir: string): TopicBytes {
  return new Map(TOPIC_PATHS.map((p) => [p, readIfPresent(path.join(stateDir, p))]));
}

/** Records one topic as published; written beside and renamed, so a crash never leaves half a file. */
export function recordSnapshot(stateDir: string, topicPath: TopicPath, bytes: Buffer): void {
  const file = path.join(stateDir, topicPath);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}

/** What a live site serves now (`--against`); a 404 means the topic is not there. */
export async function fetchLiveTopics(siteUrl: string, timeoutMs: number): Promise<TopicBytes> {
  const base = siteUrl.replace(/\/+$/, '');
  const entries = await Promise.all(
    TOPIC_PATHS.map(async (p): Promise<[TopicPath, Buffer | undefined]> => {
      const res = await fetch(`${base}${p}`, { signal: AbortSignal.timeout(timeoutMs), headers: { 'Accept-Encoding': 'identity' } });
      if (res.status === 404) return [p, undefined];
      if (!res.ok) throw new Error(`${base}${p} answered ${res.status}`);
      return [p, Buffer.from(await res.arrayBuffer())];
    }),
  );
  return new Map(entries);
}
