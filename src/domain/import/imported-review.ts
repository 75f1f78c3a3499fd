/**
 * A review as an outside source gives it, before it becomes a content file. Each
 * importer (google-reviews.ts, sheet-reviews.ts) maps its source to this shape; the
 * review file (review-file.ts) is written from it.
 */
import { createHash } from 'node:crypto';
import type { Business } from '../content/schema.ts';

export interface ImportedReview {
  /** Which importer read it: the first part of the review id. */
  source: 'google' | 'sheet';
  /** The source's own id of the review, kept only through the review id derived from it. */
  sourceId: string;
  /** The reviewer's name as the source gives it (shortened by authorName). */
  author: string;
  rating: number;
  date: string;
  text: string;
  title?: string;
  /** Where the review was collected, as written in the file's `source:` field. */
  collectedAt: string;
  response?: { date: string; text: string };
  /** How the owner verified it; absent when the source does not say (the review is then not verified). */
  verification?: string;
}

/**
 * The review id (and file name) of an imported review: the importer's name and a hash
 * of the source's own id. The same source review always gets the same id, whatever
 * else changes in it, so importing again updates it instead of adding a copy; the hash
 * turns ids of any spelling (Google's are long, mixed-case) into a valid review id.
 */
export function importedReviewId(review: Pick<ImportedReview, 'source' | 'sourceId'>): string {
  const digest = createHash('sha256').update(`${review.source}\n${review.sourceId}`).digest('hex');
  return `${review.source}-${digest.slice(0, 12)}`;
}

/**
 * The name a review is signed with, as the business's `author_names` setting says:
 * the name as given, or the first name and the initial of the last ("Tomás Villarreal"
 * signs "Tomás V."). A single name stays whole.
 */
export function authorName(name: string, style: Business['author_names'] = 'first-name-initial'): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (style === 'full' || words.length < 2) return words.join(' ');
  const initial = [...(words.at(-1) as string)][0]?.toLocaleUpperCase('en-US') ?? '';
  return `${words[0]} ${initial}.`;
}
