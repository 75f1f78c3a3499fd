/** `npm run build`: CONTENT_DIR, SITE_URL and OUT_DIR choose what is built, for where, into where. */
import { BuildError, buildSite } from '../src/build/build-site.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';

try {
  const config = loadConfig();
  const started = performance.now();
  buildSite({ projectRoot: config.projectRoot, contentDir: config.contentDir, siteUrl: config.SITE_URL, outDir: config.outDir });
  console.log(`Built ${config.outDir} for ${config.SITE_URL} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  if (error instanceof BuildError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
