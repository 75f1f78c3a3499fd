/** `npm run serve`: serves the build in OUT_DIR as it is, without building, for the SITE_URL it was built for. */
// First: it may restart this process in place with a malloc setting (see there), before anything else runs.
import '../src/server/app/memory-settings.ts';
import { loadServeConfig } from '../src/server/config.ts';
import { PortTakenError, serve } from '../src/server/app/serve.ts';

try {
  await serve(loadServeConfig());
} catch (error) {
  // A server of ours already serving this build is the state asked for, not a failure.
  if (error instanceof PortTakenError && error.servesCurrentBuild) {
    console.log(error.message);
    process.exit(0);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
