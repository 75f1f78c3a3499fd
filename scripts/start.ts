/**
 * `npm start`: builds when the content, the sources or SITE_URL changed since the
 * last build, then serves on HOST:PORT. Exits non-zero with a reason when it cannot.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite, STAMP_FILE } from '../src/build/build-site.ts';
import { buildFingerprint } from '../src/build/fingerprint.ts';
import { loadConfig } from '../src/server/config.ts';
import { serve } from '../src/server/http/serve.ts';

function lastFingerprint(outDir: string): string | undefined {
  try {
    const stamp = path.join(outDir, STAMP_FILE);
    return existsSync(stamp) ? (JSON.parse(readFileSync(stamp, 'utf8')) as { fingerprint?: string }).fingerprint : undefined;
  } catch {
    return undefined;
  }
}

try {
  const config = loadConfig();
  const fingerprint = buildFingerprint(config.projectRoot, config.contentDir, config.SITE_URL);
  if (lastFingerprint(config.outDir) !== fingerprint) {
    console.log(`Building ${config.contentDir} for ${config.SITE_URL}…`);
    buildSite({ projectRoot: config.projectRoot, contentDir: config.contentDir, siteUrl: config.SITE_URL, outDir: config.outDir });
  }
  await serve(config);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
