/**
 * `npm start`: builds when the content, the sources or SITE_URL changed since the
 * last build, then serves on HOST:PORT. Exits non-zero with a reason when it cannot.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BuildError, buildSite, STAMP_FILE } from '../src/build/build-site.ts';
import { buildFingerprint } from '../src/build/fingerprint.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { createAppServer, listen } from '../src/server/http/server.ts';

function lastFingerprint(outDir: string): string | undefined {
  const stamp = path.join(outDir, STAMP_FILE);
  if (!existsSync(stamp)) return undefined;
  try {
    return (JSON.parse(readFileSync(stamp, 'utf8')) as { fingerprint?: string }).fingerprint;
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
  const server = await createAppServer({ outDir: config.outDir });
  const { host, port } = await listen(server, config.PORT, config.HOST);
  console.log(`Serving ${config.SITE_URL} at http://${host.includes(':') ? `[${host}]` : host}:${port}/`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => server.close(() => process.exit(0)));
  }
} catch (error) {
  if (error instanceof BuildError || error instanceof ConfigError || error instanceof Error) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
