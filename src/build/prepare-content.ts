/**
 * The content work of a build, done once before Astro runs: read the content folder,
 * check it, publish the verified reviews. Each review file's result is taken from the
 * cache (review-cache.ts) when its bytes and everything else it depends on are
 * unchanged, and prepared over worker threads otherwise. The cache is saved before
 * any page is rendered, so a build that fails later still leaves it for the next.
 *
 * The site goes to the Astro build in a file (prepared-site.ts), so Astro's process
 * neither reads nor analyses the content again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ContentProblem } from '../domain/content/problem.ts';
import { businessToday, reviewDateProblems } from '../domain/content/review-dates.ts';
import { acceptReviews, checkSiteFiles, sortByFile } from '../domain/content/validate.ts';
import { lastUpdated } from '../domain/aggregate.ts';
import type { PreparedReview } from '../domain/review-preparation.ts';
import { buildFingerprint, codeFingerprint } from './fingerprint.ts';
import type { PreparedSite } from './prepared-site.ts';
import { readContentFiles } from './read-content.ts';
import { loadReviewCache, reviewCacheDir, saveReviewCache, type ReviewCache } from './review-cache.ts';
import { prepareReviews } from './review-workers.ts';

export interface PrepareInput {
  projectRoot: string;
  contentDir: string;
  outDir: string;
  siteUrl: string;
  /** Where the prepared site goes (prepared-site.ts). */
  siteFile: string;
}

export interface ReviewCounts {
  files: number;
  /** Taken from the cache. */
  cached: number;
  /** Checked and analysed in this build. */
  prepared: number;
}

export type PrepareOutput =
  | { ok: false; problems: ContentProblem[]; reviews: ReviewCounts }
  | { ok: true; reviews: ReviewCounts; updated: string | null; fingerprint: string; code: string };

export async function prepareContent({ projectRoot, contentDir, outDir, siteUrl, siteFile }: PrepareInput): Promise<PrepareOutput> {
  const digests = new Map<string, string>();
  const files = readContentFiles(contentDir, digests);
  const site = checkSiteFiles(files);
  const code = codeFingerprint(projectRoot);
  const cacheDir = reviewCacheDir(outDir, { code, business: files.business?.text ?? null, aspects: files.aspects?.text ?? null });
  const cache = loadReviewCache(cacheDir);

  const digestOf = (file: { path: string }) => digests.get(path.join(contentDir, file.path)) ?? '';
  const hits = files.reviews.map((file) => {
    const hit = cache.get(file.path);
    return hit?.digest === digestOf(file) ? hit : undefined;
  });
  const missing = files.reviews.filter((_, index) => hits[index] === undefined);
  // A review's record depends on the business and the vocabulary as parsed: with either file bad, it is only checked.
  const publish = site.business !== null && (!files.aspects || site.aspectVocabulary !== null);
  const fresh = await prepareReviews(missing, { business: site.business, extension: site.aspectVocabulary, publish });
  let taken = 0;
  const entries = files.reviews.map((file, index) => ({ path: file.path, ...(hits[index] ?? { digest: digestOf(file), ...(fresh[taken++] as PreparedReview) }) }));
  const reviews: ReviewCounts = { files: files.reviews.length, cached: files.reviews.length - missing.length, prepared: missing.length };

  const next: ReviewCache = new Map(entries.map(({ path: file, digest, problems, published, dates }) => [file, { digest, problems, published, dates }]));
  const gone = [...cache.keys()].filter((file) => !next.has(file));
  saveReviewCache(cacheDir, next, [...missing.map((file) => file.path), ...gone]);

  // The build's clock: no review may be dated after its day, in the business's time zone.
  const today = businessToday(site.business, new Date());
  const dated = entries.map((entry) => {
    const late = reviewDateProblems(entry.path, entry.dates, today);
    return late.length > 0 ? { ...entry, problems: [...entry.problems, ...late], published: null } : entry;
  });
  const { accepted, problems } = acceptReviews(files.reviews, dated);
  const all = sortByFile([...site.problems, ...problems]);
  if (all.length > 0 || !site.business) return { ok: false, problems: all, reviews };

  const published = accepted.filter((entry) => entry.published);
  const { business, faq, summary, aspectVocabulary } = site;
  const handed: PreparedSite = { content: { business, faq, summary, aspectVocabulary }, cacheDir, published: published.map((entry) => entry.path) };
  mkdirSync(path.dirname(siteFile), { recursive: true });
  writeFileSync(siteFile, JSON.stringify(handed));
  const updated = lastUpdated(published.flatMap((entry) => entry.published ?? []));
  // Taken from the bytes just read, so the stamp names exactly the inputs of this build.
  const fingerprint = buildFingerprint(projectRoot, contentDir, siteUrl, digests);
  return { ok: true, reviews, updated, fingerprint, code };
}
