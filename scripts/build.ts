/** `npm run build`: CONTENT_DIR, SITE_URL and OUT_DIR choose what is built, for where, into where. */
import path from 'node:path';
import { BuildLockedError } from '../src/build/build-lock.ts';
import { BuildError, buildSite } from '../src/build/build-site.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';

try {
  const config = loadConfig();
  const started = performance.now();
  const id = await buildSite({ projectRoot: config.projectRoot, contentDir: config.contentDir, siteUrl: config.SITE_URL, outDir: config.outDir });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Built ${path.join(config.outDir, 'builds', id)} for ${config.SITE_URL} in ${seconds} s; ${config.outDir}/current now points to it.`);
} catch (error) {
  if (error instanceof BuildError || error instanceof BuildLockedError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
