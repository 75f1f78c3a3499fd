/**
 * The content work of a build, done once before Astro renders: read the content folder,
 * check it, publish the verified reviews. Each review file's result is taken from the
 * cache (review-cache.ts) when its bytes and everything else it depends on are
 * unchanged, and prepared over worker threads otherwise. The cache is saved before
 * any page is rendered, so a build that fails later still leaves it for the next.
 *
 * The site goes to the Astro build (prepared-site.ts) as /reviews.json, written here
 * (reviews-document.ts), and the rest of the content, handed over by the build, so
 * Astro's process neither reads nor analyses the content again.
 */
import path from 'node:path';
import type { ContentProblem } from '../domain/content/problem.ts';
import { businessToday, reviewDateProblems } from '../domain/content/review-dates.ts';
import { acceptReviews, checkSiteFiles, sortByFile, type ContentFile, type ContentFiles } from '../domain/content/validate.ts';
import { aggregateRating, lastUpdated } from '../domain/aggregate.ts';
import { compareNewestFirst } from '../domain/review-record.ts';
import { siteUrls } from '../domain/site-urls.ts';
import type { PreparedReview } from '../domain/review-preparation.ts';
import { buildFingerprint, codeFingerprint } from './fingerprint.ts';
import type { PreparedSite } from './prepared-site.ts';
import { readReviewFiles, readSiteFiles, type FileStamp } from './read-content.ts';
import { loadReviewCache, reviewCacheDir, saveReviewCache, type CachedReview, type ReviewCache } from './review-cache.ts';
import { writeReviewsDocument } from './reviews-document.ts';
import { prepareReviews, type PrepareSetup } from './review-workers.ts';

export interface PrepareInput {
  projectRoot: string;
  contentDir: string;
  outDir: string;
  siteUrl: string;
  /** Where /reviews.json goes, to be moved into the build once Astro has rendered. */
  reviewsFile: string;
}

export interface ReviewCounts {
  files: number;
  /** Taken from the cache. */
  cached: number;
  /** Checked and analysed in this build. */
  prepared: number;
  /** Of those from the cache, the files not even read: unchanged since their entry was made. */
  unread: number;
}

export type PrepareOutput =
  | { ok: false; problems: ContentProblem[]; reviews: ReviewCounts }
  | { ok: true; reviews: ReviewCounts; site: PreparedSite; updated: string | null; fingerprint: string; code: string };

type ReviewEntry = CachedReview & { path: string };

interface ReviewFilesRead {
  /** In file-name order. */
  entries: ReviewEntry[];
  reviews: ReviewCounts;
  /** The files that could not be read as content. */
  unreadable: ContentProblem[];
  /** The files read and prepared in this build. */
  prepared: string[];
}

/**
 * Every review file's entry: taken from the cache when its bytes are unchanged, else
 * read and prepared with `setup`. The texts read are dropped when it returns, before
 * the records are saved and written.
 */
async function reviewEntries(contentDir: string, cache: ReviewCache, digests: Map<string, string>, setup: PrepareSetup): Promise<ReviewFilesRead> {
  // A file whose stamp is the one its entry was made with is not read again: the entry holds its digest.
  const stamps = new Map<string, FileStamp>();
  const known = (file: string, stamp: FileStamp) => {
    const entry = cache.get(file);
    return entry?.stamp === stamp ? entry.digest : undefined;
  };
  const { reviews: reviewFiles, problems: unreadable } = readReviewFiles(contentDir, { digests, stamps, known });
  const digestOf = (file: { path: string }) => digests.get(path.join(contentDir, file.path)) ?? '';
  const hits = reviewFiles.map((file) => {
    const hit = cache.get(file.path);
    return hit?.digest === digestOf(file) ? hit : undefined;
  });
  // Every known file is a hit; what is left was read, so it has its text.
  const missing = reviewFiles.filter((file, index): file is ContentFile => hits[index] === undefined && 'text' in file);
  const fresh = await prepareReviews(missing, setup);
  let taken = 0;
  const entries = reviewFiles.map((file, index) => ({
    path: file.path,
    ...(hits[index] ?? { digest: digestOf(file), ...(fresh[taken++] as PreparedReview) }),
    stamp: stamps.get(file.path),
  }));
  const unread = reviewFiles.filter((file) => !('text' in file)).length;
  const reviews: ReviewCounts = { files: reviewFiles.length, cached: reviewFiles.length - missing.length, prepared: missing.length, unread };
  return { entries, reviews, unreadable, prepared: missing.map((file) => file.path) };
}

export async function prepareContent({ projectRoot, contentDir, outDir, siteUrl, reviewsFile }: PrepareInput): Promise<PrepareOutput> {
  const digests = new Map<string, string>();
  const siteFiles = readSiteFiles(contentDir, digests);
  const code = codeFingerprint(projectRoot);
  const cacheDir = reviewCacheDir(outDir, { code, business: siteFiles.business?.text ?? null, aspects: siteFiles.aspects?.text ?? null });
  const cache = loadReviewCache(cacheDir);
  const files: ContentFiles = { ...siteFiles, reviews: [] };
  const site = checkSiteFiles(files);
  // A review's record depends on the business and the vocabulary as parsed: with either file bad, it is only checked.
  const publish = site.business !== null && (!files.aspects || site.aspectVocabulary !== null);
  const { entries, reviews, unreadable, prepared } = await reviewEntries(contentDir, cache, digests, { business: site.business, extension: site.aspectVocabulary, publish });

  const next: ReviewCache = new Map(entries.map(({ path: file, digest, stamp, problems, published, dates }) => [file, { digest, stamp, problems, published, dates }]));
  const gone = [...cache.keys()].filter((file) => !next.has(file));
  // A file read again for a new stamp but the same bytes keeps its entry, under the new stamp.
  const restamped = entries.filter((entry) => cache.get(entry.path)?.stamp !== entry.stamp).map((entry) => entry.path);
  saveReviewCache(cacheDir, next, [...prepared, ...restamped, ...gone]);

  // The build's clock: no review may be dated after its day, in the business's time zone.
  const today = businessToday(site.business, new Date());
  const dated = entries.map((entry) => {
    const late = reviewDateProblems(entry.path, entry.dates, today);
    return late.length > 0 ? { ...entry, problems: [...entry.problems, ...late], published: null } : entry;
  });
  const { accepted, problems } = acceptReviews(entries, dated);
  const all = sortByFile([...unreadable, ...site.problems, ...problems]);
  if (all.length > 0 || !site.business) return { ok: false, problems: all, reviews };

  const { business, faq, summary, aspectVocabulary } = site;
  const content = { business, faq, summary, aspectVocabulary };
  const published = accepted.flatMap((entry) => entry.published ?? []).sort(compareNewestFirst);
  const urls = siteUrls(siteUrl);
  const updated = lastUpdated(published);
  const head = { business, aggregate_rating: aggregateRating(published), updated };
  writeReviewsDocument(reviewsFile, head, published, urls.reviewPage);
  // Taken from the bytes just read, so the stamp names exactly the inputs of this build.
  const fingerprint = buildFingerprint(projectRoot, contentDir, siteUrl, digests);
  return { ok: true, reviews, site: { content, reviewsFile }, updated, fingerprint, code };
}
