/** Copies of the small build for tests that switch the served build in process. */
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { writeStaticManifest } from '../../src/build/static-manifest.ts';
import { serializeReviewsDataset } from '../../src/domain/datasets.ts';
import type { ReviewsDataset } from '../../src/domain/schemas/datasets.ts';
import { TEST_SITE_URL } from './build.ts';

/** A copy of the small build as `<outDir>/builds/<id>`; `title` replaces every review's title in its reviews.json. */
export async function copySmallBuild(outDir: string, id: string, title?: string): Promise<string> {
  const dir = path.join(outDir, 'builds', id);
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(realpathSync(path.join(inject('smallBuild'), 'current')), dir, { recursive: true });
  if (title !== undefined) {
    const file = path.join(dir, 'client/reviews.json');
    const dataset = JSON.parse(readFileSync(file, 'utf8')) as ReviewsDataset;
    for (const review of dataset.reviews) review.title = title;
    writeFileSync(file, serializeReviewsDataset(dataset));
    for (const stale of [`${file}.gz`, `${file}.br`]) rmSync(stale, { force: true });
    await writeStaticManifest({ outDir: dir, siteUrl: TEST_SITE_URL, updated: dataset.updated });
  }
  return dir;
}
