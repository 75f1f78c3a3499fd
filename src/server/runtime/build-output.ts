/**
 * Where the running build's files are. On-demand routes read the pre-rendered
 * documents of their own build (the catalog loads reviews.json, the hub
 * distributes the topics' bytes), so both always agree with what GET serves.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConfig } from '../config.ts';

let cached: string | undefined;

/** The build folder (with `client/` and `server/`) this code was bundled into, else OUT_DIR. */
export function buildOutputDir(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'client')) && existsSync(path.join(dir, 'server', 'entry.mjs'))) {
      cached = dir;
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  cached = getConfig().outDir;
  return cached;
}

/** The file a pre-rendered URL path is served from, e.g. `/reviews.json`. */
export function clientFile(urlPath: string): string {
  return path.join(buildOutputDir(), 'client', urlPath);
}
