import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
}

/**
 * A hash of everything a build depends on: the content, the sources, the lockfile
 * and the site URL. `npm start` rebuilds only when it differs from the last build's.
 */
export function buildFingerprint(projectRoot: string, contentDir: string, siteUrl: string): string {
  const files: string[] = [];
  walk(contentDir, files);
  walk(path.join(projectRoot, 'src'), files);
  walk(path.join(projectRoot, 'public'), files);
  for (const name of ['astro.config.mjs', 'package-lock.json', 'tsconfig.json']) {
    const full = path.join(projectRoot, name);
    if (existsSync(full)) files.push(full);
  }
  const hash = createHash('sha256').update(`site ${siteUrl}\ncontent ${contentDir}\n`);
  for (const file of files) hash.update(`${path.relative(projectRoot, file)}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}
