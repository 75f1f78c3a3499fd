/** Datasets for the catalog's unit tests, made by the same domain code as the build's /reviews.json. */
import path from 'node:path';
import { readContentFiles } from '../../../src/build/read-content.ts';
import { validateContent, type ContentFiles } from '../../../src/domain/content/validate.ts';
import { reviewsDataset, serializeReviewsDataset } from '../../../src/domain/datasets.ts';
import { analyzeReviewAspects } from '../../../src/domain/insights/review-aspects.ts';
import type { ReviewsDataset } from '../../../src/domain/schemas/datasets.ts';
import { buildSite } from '../../../src/domain/site.ts';

export function datasetFromFiles(files: ContentFiles): { dataset: ReviewsDataset; bytes: string } {
  const checked = validateContent(files);
  if (!checked.ok) throw new Error(`fixture content is invalid: ${JSON.stringify(checked.problems)}`);
  const site = buildSite(checked.content, 'https://reviews.example.test', analyzeReviewAspects(checked.content.aspectVocabulary));
  const bytes = serializeReviewsDataset(reviewsDataset(site));
  // Parsed back from its bytes, as the server reads it.
  return { dataset: JSON.parse(bytes) as ReviewsDataset, bytes };
}

export function fixtureDataset(name: string): { dataset: ReviewsDataset; bytes: string } {
  return datasetFromFiles(readContentFiles(path.resolve(import.meta.dirname, '../../fixtures', name)));
}
