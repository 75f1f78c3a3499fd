/**
 * The cost of reading content safely: `readContentFiles` (lstat, open without
 * following links, fstat, a bounded read and a strict UTF-8 decode per file; see
 * src/build/read-content.ts) against the plain `readdirSync` + `readFileSync` it
 * replaced, on 20,000 generated reviews, in alternating rounds in one process.
 *
 *   npm run bench -- read-content
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readContentFiles } from '../src/build/read-content.ts';
import { generateContent, writeContent } from './generate-content.ts';
import { fmt, markdownTable } from './support/table.ts';

const COUNT = Number(process.env.BENCH_REVIEWS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const dir = path.resolve(import.meta.dirname, '../tmp/bench/read-content');

/** The baseline: what the loader did before it refused links, FIFOs and oversized files. */
function readPlain(root: string): number {
  const names = readdirSync(path.join(root, 'reviews')).filter((name) => name.toLowerCase().endsWith('.md'));
  let chars = readFileSync(path.join(root, 'business.json'), 'utf8').length;
  for (const name of names.sort()) chars += readFileSync(path.join(root, 'reviews', name), 'utf8').length;
  return chars;
}

function readSafe(root: string): number {
  const files = readContentFiles(root);
  if (files.unreadable?.length) throw new Error(`unexpected problems: ${JSON.stringify(files.unreadable.slice(0, 3))}`);
  return files.reviews.reduce((sum, file) => sum + file.text.length, files.business?.text.length ?? 0);
}

writeContent(dir, generateContent(COUNT));
const times = { plain: [] as number[], safe: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, read] of [['plain', readPlain], ['safe', readSafe]] as const) {
    const started = performance.now();
    const chars = read(dir);
    times[name].push(performance.now() - started);
    if (chars === 0) throw new Error('read nothing');
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const plain = median(times.plain);
const safe = median(times.safe);
console.log(`Reading ${fmt(COUNT)} review files, median of ${ROUNDS} alternating rounds:\n`);
console.log(
  markdownTable(
    ['reader', 'ms', 'µs per file', 'vs plain'],
    [
      ['readdirSync + readFileSync (baseline)', fmt(plain), fmt((plain * 1000) / COUNT, 1), '1.00x'],
      ['readContentFiles (lstat, O_NOFOLLOW, fstat, bounded read)', fmt(safe), fmt((safe * 1000) / COUNT, 1), `${(safe / plain).toFixed(2)}x`],
    ],
  ),
);
