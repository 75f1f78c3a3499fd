/**
 * `npm run rollback`: switches OUT_DIR/current back to the build before it (or to
 * `--to <id>`); a running server follows within 2 seconds. Lists the kept builds.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { completeBuilds, currentBuildId, previousBuild, switchToBuild } from '../src/build/build-layout.ts';
import { lockBuilds } from '../src/build/build-lock.ts';
import { linkDependencies } from '../src/build/build-site.ts';
import { loadConfig } from '../src/server/config.ts';

const usage = `Usage: npm run rollback [-- --to <build id>] [--list]
  (no option)   switch to the build before the current one
  --to ID       switch to this kept build (see --list)
  --list        list the kept builds, newest last, and which one is current`;

try {
  const { values } = parseArgs({ options: { to: { type: 'string' }, list: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const { outDir, projectRoot } = loadConfig();
  const current = currentBuildId(outDir);
  const builds = completeBuilds(outDir);
  if (values.list) {
    for (const id of builds) console.log(`${id === current ? '*' : ' '} ${id}`);
    process.exit(0);
  }
  // --to names its build: it may be the first switch of an OUT_DIR whose builds were copied in.
  if (current === undefined && values.to === undefined) {
    throw new Error(`${outDir} has no switched build (no ${path.join(outDir, 'current')}): name one with --to (see --list), or install one with \`npm run install-build -- DIR\`.`);
  }
  const target = values.to ?? previousBuild(outDir);
  if (target === undefined) throw new Error(`There is no build before ${current} in ${path.join(outDir, 'builds')}; nothing to roll back to.`);
  if (!builds.includes(target)) throw new Error(`No complete build ${target} in ${path.join(outDir, 'builds')}; the kept builds are: ${builds.join(', ')}.`);
  if (target === current) {
    console.log(`${target} is already the current build.`);
    process.exit(0);
  }
  // Not during a build: it switches `current` as well, and prunes.
  const release = lockBuilds(outDir);
  try {
    // An OUT_DIR outside the project whose builds were copied in has no link to the packages yet.
    linkDependencies(projectRoot, outDir);
    switchToBuild(outDir, target);
  } finally {
    release();
  }
  const was = current === undefined ? 'none before' : `was ${current}`;
  console.log(`${current !== undefined && target < current ? 'Rolled back' : 'Switched'} ${outDir}: current is now ${target} (${was}). A running server switches within 2 seconds.`);
} catch (error) {
  const usageError = String((error as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS');
  console.error(error instanceof Error ? error.message : error);
  if (usageError) console.error(usage);
  process.exit(usageError ? 2 : 1);
}
