/**
 * `npm run bench`: every benchmark, one after the other, each in its own process
 * so that one's memory does not weigh on the next. `npm run bench -- search`
 * runs only the named ones. To add a benchmark, add a line to BENCHES.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const BENCHES: Record<string, string> = {
  build: 'build.ts',
  search: 'search.ts',
  mcp: 'mcp.ts',
  websub: 'websub.ts',
  absa: 'absa.ts',
  deploy: 'deploy.ts',
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHES).join(', ')}.`);
  process.exit(1);
}
let failed = false;
for (const [name, file] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  const run = spawnSync(process.execPath, [path.join(import.meta.dirname, file)], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`${name} failed (exit ${run.status ?? run.signal}).`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
