/**
 * `npm run check:layers`: dependency-cruiser with the rules of .dependency-cruiser.cjs
 * over src/ and scripts/ (some of src/ is imported only by the scripts, which are
 * therefore cruised too, so that it is not taken for dead code); exits 1 on any
 * violation.
 * dependency-cruiser reads every source with fs.readFileSync and has no parser for
 * `.astro` files, so while it runs, reading one gives its frontmatter's imports
 * (scripts/astro-imports.ts): pages, components and layouts are then held to the same
 * rules as the TypeScript beside them.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { astroImportsAsModule } from './astro-imports.ts';

process.chdir(join(import.meta.dirname, '..'));

const readFileSync = fs.readFileSync;
fs.readFileSync = ((...args: Parameters<typeof readFileSync>) => {
  const [path] = args;
  return typeof path === 'string' && path.endsWith('.astro') ? astroImportsAsModule(readFileSync(path, 'utf8')) : readFileSync(...args);
}) as typeof readFileSync;
syncBuiltinESMExports();

const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const result = await cruise(
  ['src', 'src/**/*.astro', 'scripts'],
  { ...options, outputType: 'err' },
  {},
  { tsConfig: extractTSConfig('tsconfig.json') },
);
process.stdout.write(String(result.output));
process.exit(result.exitCode === 0 ? 0 : 1);
