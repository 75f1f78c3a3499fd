/** A copy of a fixture content folder that a test may change and rebuild, as the business would. */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite } from '../../src/build/build-site.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from './build.ts';

export function copyFixture(fixture: string, name: string): string {
  const dir = path.join(PROJECT_ROOT, 'tmp/test-content', name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(PROJECT_ROOT, 'test/fixtures', fixture), dir, { recursive: true });
  return dir;
}

export function addReview(contentDir: string, id: string, title: string, date = '2024-06-01'): void {
  writeFileSync(
    path.join(contentDir, 'reviews', `${id}.md`),
    `---\nauthor: Nora Q.\nrating: 5\ndate: ${date}\nverified: true\nverification: invoice\ntitle: ${title}\n---\nThe new gutters work and Sam cleaned up every nail.\n`,
  );
}

/** Builds the folder into tmp/test-builds/<name> (the same OUT_DIR on every call). */
export async function buildContent(contentDir: string, name: string): Promise<string> {
  const outDir = path.join(PROJECT_ROOT, 'tmp/test-builds', name);
  await buildSite({ projectRoot: PROJECT_ROOT, contentDir, siteUrl: TEST_SITE_URL, outDir, stdio: 'pipe' });
  return outDir;
}
