/**
 * Checks a whole content folder at once and reports every problem in one run:
 * the owner fixes everything in one go instead of one error per build.
 */
import type { z } from 'zod';
import { splitFrontMatter } from './front-matter.ts';
import { businessSchema, idSchema, reviewFrontMatterSchema, type Business, type ContentReview } from './schema.ts';
import { parseFaq, type EditorialFaqEntry } from './editorial.ts';
import { vocabularyExtensionSchema, type VocabularyExtensionInput } from '../insights/aspect-vocabulary-extension.ts';
import { LIMITS } from './limits.ts';
import type { ContentProblem } from './problem.ts';
import { textProblem, valueProblems } from './text-rules.ts';
import { businessToday, reviewDateProblems, writtenDates, type ReviewDates } from './review-dates.ts';

export interface ContentFile {
  /** Path as shown to the owner, relative to the content folder, e.g. `reviews/r001.md`. */
  path: string;
  text: string;
}

export interface ContentFiles {
  business: ContentFile | null;
  reviews: ContentFile[];
  faq?: ContentFile | null;
  summary?: ContentFile | null;
  aspects?: ContentFile | null;
  /** Entries that could not be read as content (a symlink, a folder, a FIFO, too big, not UTF-8): see read-content.ts. */
  unreadable?: ContentProblem[];
}

export interface SiteContent {
  business: Business;
  /** Every review file, verified or not: publishing filters on `verified`. */
  reviews: ContentReview[];
  faq: EditorialFaqEntry[];
  summary: string | null;
  /** The business's extension of the aspect vocabulary (`aspects.json`), when it has one. */
  aspectVocabulary: VocabularyExtensionInput | null;
}

export type ContentResult = { ok: true; content: SiteContent } | { ok: false; problems: ContentProblem[] };

/**
 * What every review's check and publication depends on besides its own file: the
 * business (the ids a review may name, the names it may mention) and the aspect
 * vocabulary, with the editorial files and the problems of all of them.
 */
export interface SiteFilesCheck {
  business: Business | null;
  aspectVocabulary: VocabularyExtensionInput | null;
  faq: EditorialFaqEntry[];
  summary: string | null;
  problems: ContentProblem[];
}

/** Every file of the content but the reviews, checked. */
export function checkSiteFiles(files: ContentFiles): SiteFilesCheck {
  const problems: ContentProblem[] = [...(files.unreadable ?? [])];
  const businessUnreadable = problems.some((p) => p.file === 'business.json');
  const business = checkBusiness(files.business, problems, businessUnreadable);
  for (const editorial of [files.faq, files.summary]) {
    const problem = editorial && textProblem(editorial.path, 'text', editorial.text);
    if (problem) problems.push(problem);
  }
  const faq = files.faq ? parseFaq(files.faq.text) : [];
  const summary = files.summary?.text.trim() || null;
  const aspectVocabulary: VocabularyExtensionInput | null = files.aspects
    ? parseJsonFile(files.aspects, vocabularyExtensionSchema, problems)
    : null;
  return { business, aspectVocabulary, faq, summary, problems };
}

/**
 * Every problem of a content folder. With `now` (the build's clock), a date after
 * that day in the business's time zone is one of them.
 */
export function validateContent(files: ContentFiles, { now }: { now?: Date } = {}): ContentResult {
  const site = checkSiteFiles(files);
  const today = now && businessToday(site.business, now);
  const check = reviewChecker(site.business);
  const checks = files.reviews.map((file) => {
    const result = check(file);
    const late = today ? reviewDateProblems(file.path, result.dates, today) : [];
    return late.length > 0 ? { review: null, problems: [...result.problems, ...late] } : result;
  });
  const { accepted, problems } = acceptReviews(files.reviews, checks);
  const all = sortByFile([...site.problems, ...problems]);
  if (all.length > 0 || !site.business) return { ok: false, problems: all };
  const { business, faq, summary, aspectVocabulary } = site;
  return { ok: true, content: { business, reviews: accepted.flatMap((check) => check.review ?? []), faq, summary, aspectVocabulary } };
}

/** Problems in the order the owner reads them: by file, each file's in the order found. */
export function sortByFile(problems: ContentProblem[]): ContentProblem[] {
  return problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function checkBusiness(file: ContentFile | null, problems: ContentProblem[], unreadable: boolean): Business | null {
  if (!file) {
    if (unreadable) return null;
    problems.push({ file: 'business.json', field: null, message: 'is missing: the content folder needs a business.json' });
    return null;
  }
  const business = parseJsonFile(file, businessSchema, problems);
  if (!business) return null;
  for (const list of ['service_areas', 'services', 'technicians'] as const) {
    const seen = new Set<string>();
    business[list].forEach((entry, index) => {
      if (seen.has(entry.id)) {
        problems.push({ file: file.path, field: `${list}[${index}].id`, message: `"${entry.id}" is used twice` });
      }
      seen.add(entry.id);
    });
  }
  return business;
}

/** A JSON file checked against its schema; null (with the problems recorded) when it is not valid. */
function parseJsonFile<T>(file: ContentFile, schema: z.ZodType<T>, problems: ContentProblem[]): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(file.text);
  } catch (error) {
    problems.push({ file: file.path, field: null, message: `is not valid JSON: ${(error as Error).message}` });
    return null;
  }
  const textProblems = valueProblems(file.path, raw);
  if (textProblems.length > 0) {
    problems.push(...textProblems);
    return null;
  }
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    problems.push(...zodProblems(file.path, parsed.error));
    return null;
  }
  return parsed.data;
}

/** One review file on its own: the review, or its problems. Its id is checked across files by acceptReviews. */
export type ReviewCheck = ({ review: ContentReview; problems: [] } | { review: null; problems: ContentProblem[] }) & {
  /** The dates as written, where they are real dates (see reviewDateProblems), whatever else is wrong. */
  dates: ReviewDates;
};

/** Checks review files one at a time, against the ids the business defines (none when business.json is bad). */
export function reviewChecker(business: Business | null): (file: ContentFile) => ReviewCheck {
  const known = business && {
    service_area: new Set(business.service_areas.map((a) => a.id)),
    services: new Set(business.services.map((s) => s.id)),
    technicians: new Set(business.technicians.map((t) => t.id)),
  };
  return (file) => {
    const problems: ContentProblem[] = [];
    const split = splitFrontMatter(file.text);
    if (!split.ok) return { review: null, problems: [{ file: file.path, field: null, message: split.message }], dates: { date: null, response: null } };
    const dates = writtenDates(split.data as Record<string, unknown>);
    problems.push(...valueProblems(file.path, split.data), ...bodyProblems(file.path, split.body));
    const parsed = reviewFrontMatterSchema.safeParse(split.data, { reportInput: true });
    if (!parsed.success) problems.push(...zodProblems(file.path, parsed.error));
    // Checked on the fields as written, so that they come with the schema's problems in the same run.
    if (known) problems.push(...referenceProblems(file.path, split.data as Record<string, unknown>, known));
    if (!parsed.success) return { review: null, problems, dates };
    const review: ContentReview = { ...parsed.data, id: reviewIdFromPath(file.path), body: split.body };
    if (review.response && review.response.date < review.date) {
      problems.push({ file: file.path, field: 'response.date', message: `${review.response.date} is before the review date ${review.date}` });
    }
    return problems.length === 0 ? { review, problems: [], dates } : { review: null, problems, dates };
  };
}

type KnownIds = Record<'service_area' | 'services' | 'technicians', Set<string>>;

/** Ids a review names that business.json does not define; fields of the wrong type are the schema's to report. */
function referenceProblems(file: string, data: Record<string, unknown>, known: KnownIds): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const area = data.service_area;
  if (typeof area === 'string' && !known.service_area.has(area)) problems.push(unknownId(file, 'service_area', area, known.service_area));
  for (const list of ['services', 'technicians'] as const) {
    const refs = data[list];
    if (!Array.isArray(refs)) continue;
    refs.forEach((ref, index) => {
      if (typeof ref === 'string' && !known[list].has(ref)) problems.push(unknownId(file, `${list}[${index}]`, ref, known[list]));
    });
  }
  return problems;
}

/**
 * The checks that need all review files at once: each file's id (its name) must be
 * valid and used once. Returns, in file order, the results of the files without any
 * problem, and every problem, each file's id problems first.
 */
export function acceptReviews<T extends { problems: readonly ContentProblem[] }>(
  files: readonly { path: string }[],
  results: readonly T[],
): { accepted: T[]; problems: ContentProblem[] } {
  const accepted: T[] = [];
  const problems: ContentProblem[] = [];
  const seenIds = new Map<string, string>();
  files.forEach((file, index) => {
    const result = results[index] as T;
    const id = reviewIdFromPath(file.path);
    const before = problems.length;
    if (!idSchema.safeParse(id).success) {
      problems.push({
        file: file.path,
        field: null,
        message: `file name "${id}" is not a valid review id: use lower-case letters, digits and single hyphens`,
      });
    }
    const previous = seenIds.get(id);
    if (previous !== undefined) {
      problems.push({ file: file.path, field: null, message: `duplicate review id "${id}" (also ${previous})` });
    } else {
      seenIds.set(id, file.path);
    }
    problems.push(...result.problems);
    if (problems.length === before) accepted.push(result);
  });
  return { accepted, problems };
}

function bodyProblems(file: string, body: string): ContentProblem[] {
  if (body.trim() === '') return [{ file, field: 'body', message: 'is empty: write the review text below the front matter' }];
  if (body.length > LIMITS.reviewTextChars) {
    const limit = LIMITS.reviewTextChars.toLocaleString('en-US');
    return [{ file, field: 'body', message: `is ${body.length.toLocaleString('en-US')} characters long; a review may have at most ${limit}` }];
  }
  const problem = textProblem(file, 'body', body);
  return problem ? [problem] : [];
}

export function reviewIdFromPath(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? path;
  return name.replace(/\.md$/i, '');
}

function unknownId(file: string, field: string, value: string, known: Set<string>): ContentProblem {
  const list = [...known].map((id) => `"${id}"`).join(', ') || '(none defined)';
  return { file, field, message: `unknown id "${value}"; business.json defines ${list}` };
}

function zodProblems(file: string, error: z.ZodError): ContentProblem[] {
  return error.issues.map((issue) => ({
    file,
    field: issue.path.length ? formatPath(issue.path) : null,
    message:
      issue.code === 'unrecognized_keys'
        ? `unknown field(s): ${issue.keys.join(', ')}`
        : issue.code === 'invalid_type' && issue.input === undefined
          ? 'is required'
          : `${issue.message}${given(issue.input)}`,
  }));
}

/** The value a problem is about, when it is short enough to quote on the line. */
function given(input: unknown): string {
  if (input === undefined || (typeof input === 'object' && input !== null)) return '';
  const text = JSON.stringify(input);
  return text.length <= 60 ? `; got ${text}` : '';
}

function formatPath(path: PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i ? '.' : ''}${String(part)}`)).join('');
}

/**
 * A name or message as printed on one line of a terminal: control characters
 * (a newline in a file name, an escape sequence), line separators and invisible
 * format characters (bidi overrides) are shown as escapes, never acted on.
 */
export function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u{${c.codePointAt(0)?.toString(16).toUpperCase()}}`;
  });
}

export function formatProblems(problems: ContentProblem[]): string {
  const lines = problems.map((p) => `  ${printable(p.file)}${p.field ? ` › ${printable(p.field)}` : ''}: ${printable(p.message)}`);
  return `${problems.length} problem${problems.length === 1 ? '' : 's'} in the content:\n${lines.join('\n')}`;
}
