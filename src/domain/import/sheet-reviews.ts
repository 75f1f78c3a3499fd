/**
 * Reviews from a spreadsheet saved as CSV, one review per row. The columns are found
 * by the header row's names (see FIELD_NAMES) or mapped by the owner (`--column
 * text="What they said"`, or a column letter such as `--column text=D`, which also
 * works without a header). Every bad cell is reported with its row and column, all of
 * them in one reading; the rows without a problem are read.
 */
import { isIsoDate } from '../dates.ts';
import type { ImportedReview } from './imported-review.ts';
import type { SourceProblem, SourceReading } from './import-outcome.ts';

export const SHEET_FIELDS = ['id', 'author', 'rating', 'date', 'text', 'title', 'response', 'response_date', 'verification', 'source'] as const;
export type SheetField = (typeof SHEET_FIELDS)[number];
const REQUIRED: readonly SheetField[] = ['author', 'rating', 'date', 'text'];

/** Header names read as each field, compared lower-case with spaces and hyphens as "_". */
const FIELD_NAMES: Record<SheetField, string[]> = {
  id: ['id', 'review_id'],
  author: ['author', 'name', 'reviewer', 'customer'],
  rating: ['rating', 'stars', 'star_rating'],
  date: ['date', 'review_date'],
  text: ['text', 'review', 'comment', 'body'],
  title: ['title', 'headline'],
  response: ['response', 'reply', 'owner_response', 'response_text'],
  response_date: ['response_date', 'reply_date'],
  verification: ['verification', 'verified_by'],
  source: ['source', 'collected_at'],
};

export interface SheetOptions {
  /** Whether the first row names the columns (default true). */
  header: boolean;
  /** The owner's mapping: field → header name or column letter. */
  columns: Partial<Record<SheetField, string>>;
}

const normalise = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** A column's letter as a spreadsheet shows it: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let letter = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letter = String.fromCharCode(65 + ((n - 1) % 26)) + letter;
  return letter;
}

function letterIndex(letter: string): number | null {
  if (!/^[A-Z]{1,3}$/.test(letter)) return null;
  return [...letter].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
}

/** Where each field is, or the problems of the mapping (a named column the header lacks, a required field missing). */
function locateColumns(header: string[] | null, options: SheetOptions): { columns: Map<SheetField, number>; problems: SourceProblem[] } {
  const columns = new Map<SheetField, number>();
  const problems: SourceProblem[] = [];
  const names = header?.map(normalise) ?? [];
  for (const field of SHEET_FIELDS) {
    const mapped = options.columns[field];
    if (mapped !== undefined) {
      const byName = header ? header.findIndex((name) => name.trim() === mapped.trim()) : -1;
      const index = byName >= 0 ? byName : letterIndex(mapped.trim());
      if (index === null) {
        const known = header ? `the header has ${header.map((h) => JSON.stringify(h)).join(', ')}` : 'without a header, name a column by its letter (A, B, …)';
        problems.push({ where: `--column ${field}=${mapped}`, message: `no such column; ${known}` });
      } else columns.set(field, index);
      continue;
    }
    const index = names.findIndex((name) => FIELD_NAMES[field].includes(name));
    if (index >= 0) columns.set(field, index);
  }
  for (const field of REQUIRED) {
    if (!columns.has(field) && options.columns[field] === undefined) {
      problems.push({
        where: 'the header row',
        message: `has no column for "${field}"; name one ${FIELD_NAMES[field].map((n) => `"${n}"`).join(' or ')}, or map it with --column ${field}=<header or letter>`,
      });
    }
  }
  return { columns, problems };
}

/** The reviews of a sheet's rows (each a list of cells, as CSV gives them). */
export function readSheetReviews(rows: string[][], options: SheetOptions): SourceReading {
  const header = options.header ? (rows[0] ?? []) : null;
  const { columns, problems } = locateColumns(header, options);
  const reading: SourceReading = { reviews: [], skipped: [], problems };
  if (problems.length > 0) return reading;
  const first = options.header ? 1 : 0;
  const width = header?.length ?? null;
  rows.slice(first).forEach((cells, offset) => {
    const row = first + offset + 1;
    if (cells.every((cell) => cell.trim() === '')) return;
    if (width !== null && cells.length !== width) {
      reading.problems.push({ where: `row ${row}`, message: `has ${cells.length} cells where the header has ${width}: a missing or extra separator` });
      return;
    }
    const result = readRow(cells, row, columns);
    if ('review' in result) reading.reviews.push(result.review);
    else if (result.skip) reading.skipped.push(result.skip);
    else reading.problems.push(...result.problems);
  });
  return reading;
}

type RowResult = { review: ImportedReview } | { skip: SourceProblem; problems?: never } | { skip?: never; problems: SourceProblem[] };

function readRow(cells: string[], row: number, columns: Map<SheetField, number>): RowResult {
  const problems: SourceProblem[] = [];
  const cell = (field: SheetField) => {
    const index = columns.get(field);
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };
  const bad = (field: SheetField, allowed: string) => {
    const index = columns.get(field) as number;
    problems.push({ where: `row ${row}, column ${columnLetter(index)} (${field})`, message: `${JSON.stringify(cell(field))} is not allowed: ${allowed}` });
  };
  const author = cell('author');
  if (!author) bad('author', "the reviewer's name, not empty");
  const rating = cell('rating');
  if (!/^[1-5]$/.test(rating)) bad('rating', 'a whole number from 1 to 5');
  const date = cell('date');
  if (!isIsoDate(date)) bad('date', 'a real date written YYYY-MM-DD');
  const response = cell('response');
  const responseDate = cell('response_date');
  if (response && !isIsoDate(responseDate)) bad('response_date', "the date of the owner's response, YYYY-MM-DD");
  else if (response && isIsoDate(date) && responseDate < date) bad('response_date', `a date on or after the review's (${date})`);
  if (!response && responseDate) bad('response_date', 'empty when there is no response');
  if (problems.length > 0) return { problems };
  const text = cell('text');
  const sourceId = cell('id') || `${date}\n${author}`;
  if (!text) return { skip: { where: `row ${row}`, message: 'has no review text; a published review needs its text' } };
  const review: ImportedReview = { source: 'sheet', sourceId, author, rating: Number(rating), date, text, collectedAt: cell('source') || 'spreadsheet' };
  const title = cell('title');
  if (title) review.title = title;
  if (response) review.response = { date: responseDate, text: response };
  const verification = cell('verification');
  if (verification) review.verification = verification;
  return { review };
}
