/** Builds a fixture content folder once per test run (reused while its inputs are unchanged). */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite, STAMP_FILE } from '../../src/build/build-site.ts';
import { buildFingerprint } from '../../src/build/fingerprint.ts';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const TEST_SITE_URL = 'https://reviews.example.test';

export function buildFixture(name: string, outName = name, siteUrl = TEST_SITE_URL): string {
  const contentDir = path.join(PROJECT_ROOT, 'test/fixtures', name);
  const outDir = path.join(PROJECT_ROOT, 'tmp/test-builds', outName);
  const fingerprint = buildFingerprint(PROJECT_ROOT, contentDir, siteUrl);
  const stamp = path.join(outDir, STAMP_FILE);
  const current = existsSync(stamp) && (JSON.parse(readFileSync(stamp, 'utf8')) as { fingerprint: string }).fingerprint;
  if (current !== fingerprint) buildSite({ projectRoot: PROJECT_ROOT, contentDir, siteUrl, outDir, stdio: 'pipe' });
  return outDir;
}
