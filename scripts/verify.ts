/** `npm run verify -- ID… --by HOW`: marks reviews verified by the owner (README "Verification policy"). */
import { parseArgs } from 'node:util';
import { verifyReviews } from '../src/build/import/verify-reviews.ts';
import { printable } from '../src/domain/content/validate.ts';
import { loadConfig } from '../src/server/config.ts';

const USAGE = `Usage: npm run verify -- ID... --by HOW

Marks each review (the file name in content/reviews without .md) verified, and
records how, e.g. --by invoice or --by job-record. Nothing else in the file changes.
Verify a review when your records show the job was done for that customer; a
verified review is published whatever its rating.`;

function usage(message: string): never {
  process.stderr.write(`verify: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { by: { type: 'string' }, help: { type: 'boolean' } } });
} catch (error) {
  usage((error as Error).message);
}
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const how = parsed.values.by?.trim();
if (!how) usage('say how the reviews were verified: --by invoice (or job-record, …)');
if (parsed.positionals.length === 0) usage('name at least one review id');

const { contentDir } = loadConfig();
const result = verifyReviews(contentDir, parsed.positionals, how);
for (const id of result.verified) process.stdout.write(`  verified  ${id} (${printable(how)})\n`);
for (const id of result.unchanged) process.stdout.write(`  unchanged ${id}: already verified by ${printable(how)}\n`);
for (const { id, message } of result.errors) process.stderr.write(`  error     ${printable(id)} ${printable(message)}\n`);
process.stdout.write(`${result.verified.length} verified, ${result.unchanged.length} unchanged, ${result.errors.length} error(s).\n`);
process.exit(result.errors.length > 0 ? 1 : 0);
