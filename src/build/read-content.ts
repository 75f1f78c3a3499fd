/**
 * Build-time I/O: reads a content folder into the plain files that
 * `validateContent` checks. Shared by the Astro build, `npm run check:content`
 * and the benchmarks.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ContentFile, ContentFiles } from '../domain/content/validate.ts';

/** `CONTENT_DIR` may be absolute or relative to the project root (the working directory). */
export function resolveContentDir(dir = process.env.CONTENT_DIR || 'content'): string {
  return path.resolve(dir);
}

function readOptional(root: string, name: string): ContentFile | null {
  const file = path.join(root, name);
  return existsSync(file) ? { path: name, text: readFileSync(file, 'utf8') } : null;
}

export function readContentFiles(root: string): ContentFiles {
  if (!existsSync(root)) throw new Error(`The content folder ${root} does not exist (CONTENT_DIR).`);
  const reviewsDir = path.join(root, 'reviews');
  const names = existsSync(reviewsDir)
    ? readdirSync(reviewsDir).filter((name) => name.toLowerCase().endsWith('.md')).sort()
    : [];
  return {
    business: readOptional(root, 'business.json'),
    reviews: names.map((name) => ({
      path: `reviews/${name}`,
      text: readFileSync(path.join(reviewsDir, name), 'utf8'),
    })),
    faq: readOptional(root, 'faq.md'),
    summary: readOptional(root, 'summary.md'),
    aspects: readOptional(root, 'aspects.json'),
  };
}
