/**
 * `npm run verify -- ID… --by HOW`: the owner marks reviews verified, saying how
 * (README "Verification policy"). Only `verified` and `verification` change in each
 * file; an id with no file, or a file that cannot be read, is reported and left.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { idSchema } from '../../domain/content/schema.ts';
import { verifyReviewFile } from '../../domain/import/review-file.ts';

export interface VerifyResult {
  verified: string[];
  unchanged: string[];
  errors: { id: string; message: string }[];
}

export function verifyReviews(contentDir: string, ids: readonly string[], how: string): VerifyResult {
  const result: VerifyResult = { verified: [], unchanged: [], errors: [] };
  for (const id of ids) {
    if (!idSchema.safeParse(id).success) {
      result.errors.push({ id, message: 'is not a review id (the file name without .md: lower-case letters, digits and hyphens)' });
      continue;
    }
    const file = path.join(contentDir, 'reviews', `${id}.md`);
    if (!existsSync(file)) {
      result.errors.push({ id, message: `has no file ${path.relative(process.cwd(), file)}` });
      continue;
    }
    const merged = verifyReviewFile(readFileSync(file, 'utf8'), how);
    if (!merged.ok) result.errors.push({ id, message: merged.message });
    else if (merged.changed.length === 0) result.unchanged.push(id);
    else {
      writeFileSync(`${file}.partial`, merged.text);
      renameSync(`${file}.partial`, file);
      result.verified.push(id);
    }
  }
  return result;
}
