/**
 * `npm run cdn:upload -- DEST`: copies the current build's public files (OUT_DIR/client)
 * into DEST, a folder that stands for the CDN's origin (a mounted bucket, a web root, or
 * the folder a CDN's own CLI uploads), with what the CDN needs to serve them as the server
 * does: each file's precompressed copies (.br, .gz) and a `_headers` file (Netlify and
 * Cloudflare Pages read it; other CDNs take the same values as object metadata) with
 * Content-Type, Content-Encoding, Cache-Control and ETag per object.
 *
 * Order, so that no client sees a new file that links to one not there yet: assets first
 * (stylesheets, scripts, images), then the data documents, then the pages, then the
 * feeds. Each file is written under a temporary name and renamed over the old one, and
 * a file whose bytes are already there is not written again. Files the new build no
 * longer has are removed last, except hashed assets (/_astro/), which pages still cached
 * may name. Only Node's own modules: no rsync.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { servedBuildDir } from '../src/build/build-layout.ts';
import { MANIFEST_FILE, type StaticFileEntry, type StaticManifest } from '../src/build/static-manifest.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { etagOf } from '../src/server/builds/build-files.ts';
import { cacheControlFor } from '../src/server/http/public-headers.ts';

const usage = `Usage: npm run cdn:upload -- DEST
  DEST   the folder that stands for the CDN's origin; it is created if missing`;

const PHASES = ['asset', 'document', 'page', 'feed'] as const;
type Phase = (typeof PHASES)[number];
const FEEDS = new Set(['/feed.xml', '/api/feed.json']);
const VARIANTS = [['br', '.br'], ['gzip', '.gz']] as const;

function phaseOf(urlPath: string, entry: StaticFileEntry): Phase {
  // Sitemaps name pages as feeds do: they go up with the feeds, after the pages.
  if (FEEDS.has(urlPath) || urlPath === '/sitemap.xml' || urlPath.startsWith('/sitemaps/')) return 'feed';
  if (entry.type.startsWith('text/html')) return 'page';
  if (entry.type.startsWith('application/json') || entry.type.startsWith('application/ld+json')) return 'document';
  return 'asset';
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

/** Writes `bytes` at `file` by rename, so a reader of the origin sees the old file or the new one. */
function put(file: string, bytes: Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  writeFileSync(temp, bytes);
  renameSync(temp, file);
}

function headersFile(manifest: StaticManifest): string {
  const blocks: string[] = [];
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    const common = [`  Content-Type: ${entry.type}`, `  Cache-Control: ${cacheControlFor(urlPath)}`, '  Vary: Accept-Encoding'];
    blocks.push([urlPath, ...common, `  ETag: ${etagOf(entry)}`].join('\n'));
    for (const [coding, suffix] of VARIANTS) {
      if (entry.encodings[coding] === undefined) continue;
      blocks.push([`${urlPath}${suffix}`, ...common, `  Content-Encoding: ${coding}`, `  ETag: ${etagOf(entry, coding)}`].join('\n'));
    }
  }
  return `${blocks.join('\n')}\n`;
}

function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full, `${prefix}/${name}`) : [`${prefix}/${name}`];
  });
}

try {
  const { positionals, values } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (positionals.length !== 1) throw Object.assign(new Error('Give exactly one destination folder.'), { code: 'ERR_PARSE_ARGS_USAGE' });
  const dest = path.resolve(positionals[0] as string);
  const { outDir } = loadConfig();
  const { id, dir } = servedBuildDir(outDir);
  if (!existsSync(path.join(dir, MANIFEST_FILE))) throw new ConfigError(`${outDir} has no build to upload; run \`npm run build\` first.`);
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as StaticManifest;
  const client = path.join(dir, 'client');
  const counts = { written: 0, unchanged: 0, removed: 0 };
  // The headers come first: a CDN that reads them must know a new object's type before it serves it.
  put(path.join(dest, '_headers'), Buffer.from(headersFile(manifest)));
  const wanted = new Set(['/_headers']);
  for (const phase of PHASES) {
    for (const [urlPath, entry] of Object.entries(manifest.files)) {
      if (phaseOf(urlPath, entry) !== phase) continue;
      const names = [urlPath, ...VARIANTS.filter(([coding]) => entry.encodings[coding] !== undefined).map(([, suffix]) => `${urlPath}${suffix}`)];
      for (const name of names) wanted.add(name);
      const target = path.join(dest, urlPath);
      if (existsSync(target) && digest(readFileSync(target)) === entry.hash && names.every((name) => existsSync(path.join(dest, name)))) {
        counts.unchanged += 1;
        continue;
      }
      // The compressed copies before the identity file, whose bytes say the object is complete.
      for (const name of [...names.slice(1), urlPath]) put(path.join(dest, name), readFileSync(path.join(client, name)));
      console.log(`${phase.padEnd(8)} ${urlPath}`);
      counts.written += 1;
    }
  }
  for (const name of filesUnder(dest)) {
    if (wanted.has(name) || name.startsWith('/_astro/')) continue;
    rmSync(path.join(dest, name));
    counts.removed += 1;
  }
  console.log(`Uploaded build ${id} to ${dest}: ${counts.written} files written, ${counts.unchanged} unchanged, ${counts.removed} removed.`);
} catch (error) {
  const usageError = String((error as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS');
  console.error(error instanceof Error && (usageError || error instanceof ConfigError) ? error.message : error);
  if (usageError) console.error(usage);
  process.exit(usageError ? 2 : 1);
}
