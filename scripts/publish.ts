/**
 * `npm run publish [-- --dry-run] [--against URL] [--hub URL]`: after a build and
 * deploy, tell the WebSub hub which topics changed. See README "Deploying" (CI + CDN).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { runPublish } from '../src/server/websub/publish/run-publish.ts';

const usage = `Usage: npm run publish [-- --dry-run] [--against <site URL>] [--hub <hub URL>]
  --dry-run        print what changed; ping nothing, record nothing
  --against URL    compare with what the live site at URL serves instead of the last snapshot
  --hub URL        ping this hub instead of {SITE_URL}/api/websub/hub`;

try {
  const { values } = parseArgs({
    options: { 'dry-run': { type: 'boolean', default: false }, against: { type: 'string' }, hub: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const config = loadConfig();
  const code = await runPublish({
    outDir: config.outDir,
    stateDir: path.resolve(config.projectRoot, config.PUBLISH_STATE_DIR),
    against: values.against,
    hub: values.hub,
    dryRun: values['dry-run'],
    timeoutMs: Math.max(config.HUB_TIMEOUT_MS, 10_000),
    print: (line) => console.log(line),
  });
  process.exit(code);
} catch (error) {
  const usageError = String((error as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS');
  console.error(error instanceof Error ? error.message : error);
  if (usageError) console.error(usage);
  process.exit(usageError ? 2 : 1);
}
