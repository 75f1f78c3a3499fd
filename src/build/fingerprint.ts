import { createHash, type Hash } from 'node:crypto';
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

function hashFiles(hash: Hash, projectRoot: string, files: string[]): Hash {
  for (const file of files) hash.update(`${path.relative(projectRoot, file)}\0`).update(readFileSync(file)).update('\0');
  return hash;
}

function codeFiles(projectRoot: string): string[] {
  const files: string[] = [];
  walk(path.join(projectRoot, 'src'), files);
  walk(path.join(projectRoot, 'public'), files);
  for (const name of ['astro.config.mjs', 'package-lock.json', 'tsconfig.json']) {
    const full = path.join(projectRoot, name);
    if (existsSync(full)) files.push(full);
  }
  return files;
}

/**
 * A hash of the code a build runs: the sources, the lockfile and the config. A
 * running server compares it to tell whether a new build needs a restart too.
 */
export function codeFingerprint(projectRoot: string): string {
  return hashFiles(createHash('sha256'), projectRoot, codeFiles(projectRoot)).digest('hex');
}

/**
 * A hash of everything a build depends on: the content, the sources, the lockfile
 * and the site URL. `npm start` rebuilds only when it differs from the last build's.
 */
export function buildFingerprint(projectRoot: string, contentDir: string, siteUrl: string): string {
  const files: string[] = [];
  walk(contentDir, files);
  files.push(...codeFiles(projectRoot));
  const hash = createHash('sha256').update(`site ${siteUrl}\ncontent ${contentDir}\n`);
  return hashFiles(hash, projectRoot, files).digest('hex');
}
