/** `npm run serve`: serves the build in OUT_DIR as it is, without building, for the SITE_URL it was built for. */
import { loadServeConfig } from '../src/server/config.ts';
import { serve } from '../src/server/http/serve.ts';

try {
  await serve(loadServeConfig());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
