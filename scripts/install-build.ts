/**
 * `npm run install-build -- DIR`: copies a build made elsewhere (a whole OUT_DIR/builds/<id>
 * folder, e.g. unpacked from CI) into OUT_DIR and switches to it; a running server follows
 * within 2 seconds. Works on a server that has never built.
 */
import { parseArgs } from 'node:util';
import { BuildError } from '../src/build/build-error.ts';
import { BuildLockedError } from '../src/build/build-lock.ts';
import { installBuild } from '../src/build/install-build.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';

const usage = `Usage: npm run install-build -- DIR
  DIR   a complete build folder (OUT_DIR/builds/<id> of the machine that built it);
        it is copied to this OUT_DIR/builds/<id>, which becomes the current build`;

try {
  const { positionals, values } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (positionals.length !== 1) throw Object.assign(new Error('Give exactly one build folder.'), { code: 'ERR_PARSE_ARGS_USAGE' });
  const config = loadConfig();
  const { id, previous, copied } = installBuild(config.projectRoot, config.outDir, positionals[0] as string);
  if (previous === id) console.log(`${id} is already the current build of ${config.outDir}.`);
  else console.log(`Installed ${id} in ${config.outDir}${copied ? '' : ' (it was there already)'}: current is now ${id}${previous ? ` (was ${previous})` : ''}. A running server switches within 2 seconds.`);
} catch (error) {
  const usageError = String((error as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS');
  const known = error instanceof BuildError || error instanceof BuildLockedError || error instanceof ConfigError || usageError;
  console.error(error instanceof Error && known ? error.message : error);
  if (usageError) console.error(usage);
  process.exit(usageError ? 2 : 1);
}
