/**
 * `npm start`: builds when the content, the sources or SITE_URL changed since the
 * last build, then serves on HOST:PORT. Exits non-zero with a reason when it cannot.
 */
import { buildSite, isBuildCurrent } from '../src/build/build-site.ts';
import { loadConfig } from '../src/server/config.ts';
import { serve } from '../src/server/http/serve.ts';

try {
  const config = loadConfig();
  const build = { projectRoot: config.projectRoot, contentDir: config.contentDir, siteUrl: config.SITE_URL, outDir: config.outDir };
  if (!isBuildCurrent(build)) {
    console.log(`Building ${config.contentDir} for ${config.SITE_URL}…`);
    buildSite(build);
  }
  await serve(config);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
