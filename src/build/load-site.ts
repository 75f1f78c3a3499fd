import { formatProblems, validateContent } from '../domain/content/validate.ts';
import { buildSite, type Site } from '../domain/site.ts';
import { insightsDocument } from '../domain/insights/document.ts';
import type { Insights } from '../domain/schemas/insights.ts';
import { analyzeReviewAspects } from '../domain/insights/review-aspects.ts';
import { readContentFiles, resolveContentDir } from './read-content.ts';

let cached: Promise<Site> | undefined;

/**
 * The site model, built once per build process: every pre-rendered page of a build
 * reads the same content, so it is read, checked and analysed a single time.
 */
export function loadSite(siteUrl: string): Promise<Site> {
  cached ??= Promise.resolve().then(() => {
    const dir = resolveContentDir();
    const result = validateContent(readContentFiles(dir));
    if (!result.ok) throw new Error(`${formatProblems(result.problems)}\n(content folder: ${dir})`);
    return buildSite(result.content, siteUrl, analyzeReviewAspects(result.content.aspectVocabulary));
  });
  return cached;
}

let insights: Promise<Insights> | undefined;

/** The insights document, computed once per build: the home page and /insights.json share it. */
export function loadInsights(siteUrl: string): Promise<Insights> {
  insights ??= loadSite(siteUrl).then(insightsDocument);
  return insights;
}
