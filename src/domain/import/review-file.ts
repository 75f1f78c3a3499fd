/**
 * Imported reviews written as the review files a person writes (README "Adding a
 * review"), and merged into the file of an earlier import. The import owns what the
 * source says (author, rating, date, text, the owner's response, where it was
 * collected, a title when it has one); everything the owner added to the file since
 * (a title, services, technicians, aspects, a comment) stays, and so does a
 * verification, which only the owner gives.
 */
import { Document, isMap, parseDocument } from 'yaml';
import { FENCE, splitFrontMatter } from '../content/front-matter.ts';
import type { ImportedReview } from './imported-review.ts';

/** What an imported review says that nobody has verified yet (README "Verification policy"). */
export const UNVERIFIED = 'pending';

const YAML_OPTIONS = { version: '1.2', schema: 'core' } as const;
const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/** The front matter fields the source decides, in the order a review file lists them. */
function sourceFields(review: ImportedReview): [string, unknown][] {
  return [
    ['author', review.author],
    ['rating', review.rating],
    ['date', review.date],
    ['source', review.collectedAt],
    ['title', review.title],
    ['response', review.response && { date: review.response.date, text: review.response.text }],
  ];
}

const bodyOf = (text: string) => `${text.trim()}\n`;

/** A new review file. */
export function newReviewFile(review: ImportedReview): string {
  const fields = sourceFields(review);
  // Where a person writes them: after the date, before where the review came from.
  fields.splice(3, 0, ['verified', review.verification !== undefined], ['verification', review.verification ?? UNVERIFIED]);
  const written = fields.filter(([, value]) => value !== undefined);
  const doc = new Document(Object.fromEntries(written), YAML_OPTIONS);
  return `---\n${doc.toString(WRITE_OPTIONS)}---\n${bodyOf(review.text)}`;
}

export type MergeResult = { ok: true; text: string; changed: string[] } | { ok: false; message: string };

/**
 * The file of an earlier import brought up to date with the source: the text and
 * the names of the fields that changed (none: the file is left as it is).
 */
export function mergeReviewFile(existing: string, review: ImportedReview): MergeResult {
  const split = splitFrontMatter(existing);
  const fence = FENCE.exec(existing.replace(/^\uFEFF/, ''));
  if (!split.ok || !fence) return { ok: false, message: `cannot be read to update it (${split.ok ? 'no front matter' : split.message}); fix or remove it` };
  const doc = parseDocument(fence[1] ?? '', YAML_OPTIONS);
  if (!isMap(doc.contents)) return { ok: false, message: 'front matter is not a set of "field: value" lines; fix or remove it' };
  const current = split.data as Record<string, unknown>;
  const changed: string[] = [];
  for (const [field, value] of sourceFields(review)) {
    // Google has no titles: a title the owner wrote stays unless the source gives one.
    if (field === 'title' && value === undefined) continue;
    if (same(current[field], value)) continue;
    changed.push(field);
    if (value === undefined) doc.delete(field);
    else doc.set(field, value);
  }
  if (review.verification !== undefined && (current.verified !== true || current.verification !== review.verification)) {
    changed.push('verified');
    doc.set('verified', true);
    doc.set('verification', review.verification);
  }
  const body = bodyOf(review.text);
  if (split.body.trim() !== review.text.trim()) changed.push('text');
  if (changed.length === 0) return { ok: true, text: existing, changed };
  return { ok: true, text: `---\n${doc.toString(WRITE_OPTIONS)}---\n${body}`, changed };
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim() === b.trim();
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}

/** A review file marked verified by the owner, how they say; everything else as it was. */
export function verifyReviewFile(existing: string, verification: string): MergeResult {
  const text = existing.replace(/^\uFEFF/, '');
  const fence = FENCE.exec(text);
  if (!fence) return { ok: false, message: 'has no front matter between two "---" lines' };
  const doc = parseDocument(fence[1] ?? '', YAML_OPTIONS);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return { ok: false, message: 'front matter cannot be read; run npm run check:content' };
  if (doc.get('verified') === true && doc.get('verification') === verification) return { ok: true, text: existing, changed: [] };
  doc.set('verified', true);
  doc.set('verification', verification);
  return { ok: true, text: `---\n${doc.toString(WRITE_OPTIONS)}---\n${text.slice(fence[0].length)}`, changed: ['verified', 'verification'] };
}
