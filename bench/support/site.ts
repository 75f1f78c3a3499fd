/**
 * Bench sites without a big Astro build: generated content of a few hundred
 * reviews is built once (and reused while nothing changed); a copy of that build
 * then gets the /reviews.json of N generated reviews, made by the same domain
 * functions as the build (validateContent → buildSite → reviewsDataset →
 * serializeJson), and a fresh static manifest. Every on-demand route reads its
 * data from /reviews.json, so it serves N reviews; the other pre-rendered
 * documents (insights, feeds, the home page) stay those of the small build.
 */
import { cpSync, existsSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite as buildOutput, isBuildCurrent } from '../../src/build/build-site.ts';
import { writeStaticManifest } from '../../src/build/static-manifest.ts';
import { validateContent } from '../../src/domain/content/validate.ts';
import { reviewsDataset, serializeJson } from '../../src/domain/datasets.ts';
import { analyzeReviewAspects } from '../../src/domain/insights/review-aspects.ts';
import { buildSite } from '../../src/domain/site.ts';
import { generateContent, writeContent } from '../generate-content.ts';
import { PROJECT_ROOT } from './processes.ts';

export const BENCH_DIR = path.join(PROJECT_ROOT, 'tmp/bench');
export const BENCH_SITE_URL = 'https://reviews.bench.test';
const BASE_REVIEWS = 300;

/** The small Astro build every bench site starts from. */
export async function baseBuild(): Promise<string> {
  const contentDir = path.join(BENCH_DIR, 'content-base');
  const outDir = path.join(BENCH_DIR, 'site-base');
  if (!existsSync(path.join(contentDir, 'business.json'))) writeContent(contentDir, generateContent(BASE_REVIEWS));
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl: BENCH_SITE_URL, outDir, stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) await buildOutput(build);
  return outDir;
}

/** A copy of the base build serving `count` generated reviews; returns its folder and the dataset's size. */
export async function siteWithReviews(count: number): Promise<{ outDir: string; bytes: number }> {
  const base = await baseBuild();
  const outDir = path.join(BENCH_DIR, `site-${count}`);
  rmSync(outDir, { recursive: true, force: true });
  // A flat copy of the base's served build: its reviews.json is replaced below, which must not reach the base.
  cpSync(realpathSync(path.join(base, 'current')), outDir, { recursive: true });
  const checked = validateContent(generateContent(count));
  if (!checked.ok) throw new Error(`generated content is invalid: ${checked.problems.slice(0, 3).map((p) => p.message).join('; ')}`);
  const site = buildSite(checked.content, BENCH_SITE_URL, analyzeReviewAspects(checked.content.aspectVocabulary));
  const json = serializeJson(reviewsDataset(site));
  const file = path.join(outDir, 'client/reviews.json');
  for (const stale of [`${file}.gz`, `${file}.br`]) rmSync(stale, { force: true });
  writeFileSync(file, json);
  await writeStaticManifest({ outDir, siteUrl: BENCH_SITE_URL, updated: site.updated });
  return { outDir, bytes: Buffer.byteLength(json) };
}
