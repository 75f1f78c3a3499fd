/**
 * `npm start`: builds when the content, the sources or SITE_URL changed since the
 * last build, then serves on HOST:PORT. When a server of this service already holds
 * the port, it has switched to the new build by itself: that is said, and exit is 0.
 * Exits non-zero with a reason when it cannot.
 */
// First: it may restart this process in place with a malloc setting (see there), before anything else runs.
import '../src/server/app/memory-settings.ts';
import { buildSite, isBuildCurrent } from '../src/build/build-site.ts';
import { loadConfig } from '../src/server/config.ts';
import { PortTakenError, serve } from '../src/server/app/serve.ts';

try {
  const config = loadConfig();
  const build = { projectRoot: config.projectRoot, contentDir: config.contentDir, siteUrl: config.SITE_URL, outDir: config.outDir };
  if (!isBuildCurrent(build)) {
    console.log(`Building ${config.contentDir} for ${config.SITE_URL}…`);
    await buildSite(build);
  }
  await serve(config);
} catch (error) {
  if (error instanceof PortTakenError && error.servesCurrentBuild) {
    console.log(error.message);
    process.exit(0);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
