import { formatProblems, validateContent } from '../domain/content/validate.ts';
import { readContentFiles } from './read-content.ts';

/** Checks a content folder; returns the report for a person and whether it passed. */
export function checkContent(contentDir: string, now = new Date()): { ok: boolean; report: string } {
  const result = validateContent(readContentFiles(contentDir), { now });
  if (!result.ok) return { ok: false, report: formatProblems(result.problems) };
  const published = result.content.reviews.filter((r) => r.verified).length;
  return {
    ok: true,
    report: `Content OK: ${result.content.reviews.length} reviews (${published} verified and published) in ${contentDir}.`,
  };
}
