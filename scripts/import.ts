/**
 * `npm run import -- google FILE` / `npm run import -- csv FILE`: adds the reviews of
 * a Google Business Profile export or a spreadsheet to the content folder as review
 * files, and updates the ones an earlier import wrote. Prints what it added, updated
 * and skipped, and why; exits 1 when some entries of the source are wrong (the others
 * are imported), 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { runImport, type ImportReport, type ImportSource } from '../src/build/import/run-import.ts';
import { printable } from '../src/domain/content/validate.ts';
import { SHEET_FIELDS, type SheetField } from '../src/domain/import/sheet-reviews.ts';
import { loadConfig } from '../src/server/config.ts';

const USAGE = `Usage: npm run import -- google FILE [--verified-by HOW] [--dry-run]
       npm run import -- csv FILE [--column FIELD=HEADER]... [--no-header] [--verified-by HOW] [--dry-run]

Adds each review of FILE to the content folder (CONTENT_DIR, default content) as
reviews/<source>-<hash of the source's id>.md. Running it again, or on an export that
grew, adds only the new reviews and updates those that changed (an owner's reply
added later); fields you added to a file yourself (services, technicians, aspects)
and a verification stay.

  google FILE   Google Business Profile reviews JSON: a reviews.list answer
                ({"reviews": [...], "nextPageToken": ...}) or a Takeout reviews.json
  csv FILE      a spreadsheet saved as CSV, one review per row; the header row names
                the columns: ${SHEET_FIELDS.join(', ')}
                (author, rating, date, text required; date and response_date YYYY-MM-DD)
  --column FIELD=HEADER   the column of FIELD when its header says something else,
                e.g. --column text="What they said"; HEADER may be a letter (D)
  --no-header   the first row is a review (name columns by letter)
  --verified-by HOW   every review of FILE is verified, by HOW (invoice, job-record…);
                without it imported reviews are not verified (a sheet's
                "verification" column says it per row)
  --dry-run     print what would change, write nothing
  --help        this text

Reviewers' names follow business.json "author_names": "first-name-initial" (default,
"Tomás Villarreal" signs "Tomás V.") or "full".`;

function usage(message: string): never {
  process.stderr.write(`import: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      column: { type: 'string', multiple: true },
      'no-header': { type: 'boolean' },
      'verified-by': { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
} catch (error) {
  usage((error as Error).message);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const [kind, file, ...extra] = positionals;
if (kind !== 'google' && kind !== 'csv') usage(kind ? `unknown source "${kind}"; use google or csv` : 'name the source: google or csv');
if (!file) usage('name the file to import');
if (extra.length > 0) usage(`one file at a time; unexpected ${extra.join(' ')}`);
const verifiedBy = values['verified-by']?.trim();
if (values['verified-by'] !== undefined && !verifiedBy) usage('--verified-by needs a value, e.g. --verified-by invoice');

const columns: Partial<Record<SheetField, string>> = {};
for (const mapping of values.column ?? []) {
  const [field, ...rest] = mapping.split('=');
  if (!SHEET_FIELDS.includes(field as SheetField) || rest.length === 0) usage(`--column ${mapping}: write FIELD=HEADER, FIELD one of ${SHEET_FIELDS.join(', ')}`);
  columns[field as SheetField] = rest.join('=');
}
if (kind === 'google' && (values.column || values['no-header'])) usage('--column and --no-header are for csv');
const source: ImportSource = kind === 'google' ? { kind } : { kind, sheet: { header: !values['no-header'], columns } };

const { contentDir } = loadConfig();
let report: ImportReport;
try {
  report = runImport({ source, file, contentDir, ...(verifiedBy ? { verifiedBy } : {}), dryRun: values['dry-run'] ?? false });
} catch (error) {
  process.stderr.write(`import: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? `no such file: ${file}` : (error as Error).message}\n`);
  process.exit(1);
}

const line = (label: string, id: string, detail: string) => `  ${label.padEnd(8)}${printable(id)}: ${printable(detail)}`;
const out = [
  ...report.added.map((entry) => line('added', entry.id, entry.detail)),
  ...report.updated.map((entry) => line('updated', entry.id, entry.detail)),
  ...report.skipped.map((entry) => line('skipped', entry.id, entry.detail)),
];
if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
for (const error of report.errors) process.stderr.write(`${line('error', error.where, error.message)}\n`);
const errors = report.errors.length;
process.stdout.write(
  `${values['dry-run'] ? 'Dry run (nothing written): ' : ''}${report.added.length} added, ${report.updated.length} updated, ` +
    `${report.skipped.length} skipped, ${errors} error${errors === 1 ? '' : 's'} (${contentDir}).\n`,
);
if (report.added.length + report.updated.length > 0 && !values['dry-run']) {
  process.stdout.write('Next: npm run check:content, then review and commit the new files.\n');
}
process.exit(errors > 0 ? 1 : 0);
