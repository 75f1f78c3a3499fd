/**
 * `npm run import`: reads a source of reviews (Google JSON, a CSV sheet), and adds
 * or updates one review file per source review in the content folder. Each file is
 * checked as `npm run check:content` would before it is written, so an import never
 * leaves the content broken; a rerun on the same source changes nothing.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { businessToday, reviewDateProblems } from '../../domain/content/review-dates.ts';
import { checkSiteFiles, reviewChecker } from '../../domain/content/validate.ts';
import { readGoogleReviews } from '../../domain/import/google-reviews.ts';
import { authorName, importedReviewId, type ImportedReview } from '../../domain/import/imported-review.ts';
import type { SourceProblem, SourceReading } from '../../domain/import/import-outcome.ts';
import { mergeReviewFile, newReviewFile } from '../../domain/import/review-file.ts';
import { readSheetReviews, type SheetOptions } from '../../domain/import/sheet-reviews.ts';
import { readContentFiles } from '../read-content.ts';

export type ImportSource = { kind: 'google' } | { kind: 'csv'; sheet: SheetOptions };

export interface ImportOptions {
  source: ImportSource;
  file: string;
  contentDir: string;
  /** How the owner verified every review of this source (`--verified-by`); a sheet's own column wins. */
  verifiedBy?: string;
  dryRun?: boolean;
  now?: Date;
}

export interface ImportEntry {
  id: string;
  /** For an update, the fields that changed; for a skip, why. */
  detail: string;
}

export interface ImportReport {
  added: ImportEntry[];
  updated: ImportEntry[];
  skipped: ImportEntry[];
  errors: SourceProblem[];
}

/** Runs one import; throws (with a message for the owner) only when nothing can be imported at all. */
export function runImport(options: ImportOptions): ImportReport {
  const files = readContentFiles(options.contentDir);
  const site = checkSiteFiles({ ...files, reviews: [] });
  const business = site.business;
  if (!business) throw new Error(`the content folder's business.json has problems; run npm run check:content first`);
  const reading = readSource(options.source, readFileSync(options.file, 'utf8'), business.time_zone);
  const report: ImportReport = { added: [], updated: [], skipped: [], errors: [...reading.problems] };
  for (const skip of reading.skipped) report.skipped.push({ id: skip.where, detail: skip.message });

  const existing = new Map(files.reviews.map((file) => [file.path, file.text]));
  const check = reviewChecker(business);
  const today = businessToday(business, options.now ?? new Date());
  const seen = new Set<string>();
  for (const read of reading.reviews) {
    const review: ImportedReview = { ...read, author: authorName(read.author, business.author_names), verification: read.verification ?? options.verifiedBy };
    const id = importedReviewId(review);
    const file = path.posix.join('reviews', `${id}.md`);
    if (seen.has(id)) {
      report.errors.push({ where: id, message: `source id ${JSON.stringify(review.sourceId)} appears twice in the source; the later one is left out` });
      continue;
    }
    seen.add(id);
    const before = existing.get(file);
    const merged = before === undefined ? { ok: true as const, text: newReviewFile(review), changed: [] } : mergeReviewFile(before, review);
    if (!merged.ok) {
      report.errors.push({ where: file, message: merged.message });
      continue;
    }
    if (before !== undefined && merged.changed.length === 0) {
      report.skipped.push({ id, detail: 'unchanged' });
      continue;
    }
    const checked = check({ path: file, text: merged.text });
    const problems = [...checked.problems, ...reviewDateProblems(file, checked.dates, today)];
    if (problems.length > 0) {
      report.errors.push(...problems.map((p) => ({ where: `${id} (${p.field ?? 'file'})`, message: p.message })));
      continue;
    }
    if (!options.dryRun) writeAtomically(path.join(options.contentDir, file), merged.text);
    const summary = `${review.author}, ${review.rating} star${review.rating === 1 ? '' : 's'}, ${review.date}`;
    if (before === undefined) report.added.push({ id, detail: summary });
    else report.updated.push({ id, detail: `changed: ${merged.changed.join(', ')}` });
  }
  return report;
}

function readSource(source: ImportSource, text: string, timeZone?: string): SourceReading {
  if (source.kind === 'google') {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      return { reviews: [], skipped: [], problems: [{ where: 'the file', message: `is not valid JSON: ${(error as Error).message}` }] };
    }
    return readGoogleReviews(document, timeZone);
  }
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    return { reviews: [], skipped: [], problems: [{ where: 'the file', message: `is not valid CSV: ${(error as Error).message}` }] };
  }
  return readSheetReviews(rows, source.sheet);
}

function writeAtomically(file: string, text: string): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
