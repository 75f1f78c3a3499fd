/** `npm run serve`: serves the build in OUT_DIR as it is, without building. */
import { loadConfig } from '../src/server/config.ts';
import { serve } from '../src/server/http/serve.ts';

try {
  await serve(loadConfig());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
