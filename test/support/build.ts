/** Builds a fixture content folder once per test run (reused while its inputs are unchanged). */
import path from 'node:path';
import { buildSite, isBuildCurrent } from '../../src/build/build-site.ts';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const TEST_SITE_URL = 'https://reviews.example.test';

export async function buildFixture(name: string, outName = name, siteUrl = TEST_SITE_URL): Promise<string> {
  const contentDir = path.join(PROJECT_ROOT, 'test/fixtures', name);
  const outDir = path.join(PROJECT_ROOT, 'tmp/test-builds', outName);
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl, outDir, stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) await buildSite(build);
  return outDir;
}
