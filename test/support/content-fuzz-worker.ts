/**
 * The content loader's fuzz, run in a worker thread so that the test can stop it
 * when an input hangs and cap its heap (see test/integration/content-fuzz.test.ts).
 * Phase A writes every generated review file into real folders, a batch at a time,
 * with links, FIFOs, folders and oversized files among them, and runs the loader
 * (readContentFiles + validateContent) on each folder. Phase B checks a share of
 * the files on their own in memory and, for each one accepted, writes the Atom feed
 * and parses it with a strict XML parser.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { SaxesParser } from 'saxes';
import { readContentFiles } from '../../src/build/read-content.ts';
import { formatProblems, validateContent, type ContentFile, type ContentResult } from '../../src/domain/content/validate.ts';
import { atomFeed } from '../../src/domain/feeds/atom.ts';
import { buildSite } from '../../src/domain/site.ts';
import { seededRandom } from './fuzz.ts';

export interface FuzzJob {
  seed: number;
  files: number;
  batches: number;
  dir: string;
  businessJson: string;
  /** Phase B checks every alone-th file by itself. */
  alone: number;
}

export type FuzzMessage =
  | { kind: 'progress'; done: number; label: string }
  | { kind: 'failure'; label: string; message: string }
  | { kind: 'done'; inputs: number; checkedAlone: number; accepted: number; loaderRuns: number; specialEntries: number; maxInputMs: number; peakHeapMiB: number };

const job = workerData as FuzzJob;
const random = seededRandom(job.seed);
const post = (message: FuzzMessage) => parentPort?.postMessage(message);

const VALUES = [
  '5', '0', '-1', '3.5', '1e999', '.nan', '.inf', '~', 'null', 'true', 'yes', 'no', '2024-02-30', '2024-13-01', '"2024-01-01"', "'x'", '""',
  '&a [1, 2]', '*a', '*nope', '<<: *a', '!!binary aGk=', '!!js/function "x"', '!!str 5', '!<tag:yaml.org,2002:str> x', '? key', '{', '[', '}', ']',
  '|', '>', '|-\n  block', '"unterminated', "'also", '\t', '\u0000', '\u0007', '\u001b[31m', '\ufeff', '\ufffe', '\u202e', '\ud800', '🏠', 'Zoë',
  '"\\u0007"', '"\\ud800"', '"\\x00"', 'x'.repeat(250), 'y'.repeat(25_000), '[roof-repair, gutters]', '[zoe-lund]', 'north', '@x', '%TAG', '---', '...',
];
const KEYS = ['author', 'rating', 'date', 'verified', 'verification', 'source', 'title', 'service_area', 'services', 'technicians', 'response', 'aspects', 'extra', '<<', '__proto__', 'constructor'];

function baseLines(): string[] {
  return [
    `author: ${random.pick(['Ann B.', 'Zoë L.', '"Quoted"'])}`,
    `rating: ${random.int(1, 5)}`,
    `date: 2024-0${random.int(1, 9)}-1${random.int(0, 9)}`,
    'verified: true',
    'verification: invoice',
    ...(random() < 0.5 ? [`title: ${random.pick(['Great', 'Leak fixed', 'Ok'])}`] : []),
    ...(random() < 0.3 ? ['services: [roof-repair]', 'technicians: [zoe-lund]'] : []),
    ...(random() < 0.2 ? ['response:', '  date: 2024-12-01', '  text: Thank you!'] : []),
  ];
}

function aliasBomb(): string {
  const width = random.int(2, 12);
  const depth = random.int(2, 10);
  const lines = [`l0: &l0 [${Array(width).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < depth; i++) lines.push(`l${i}: &l${i} [${Array(width).fill(`*l${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

/** One generated review file: a valid one with a few mutations, or noise. */
function reviewText(): string | Buffer {
  const roll = random();
  if (roll < 0.03) return Buffer.from(Array.from({ length: random.int(0, 2000) }, () => random.int(0, 255)));
  const lines = baseLines();
  for (let i = random() < 0.4 ? 0 : random.int(1, 3); i > 0; i--) {
    const mutation = random.int(0, 5);
    const at = random.int(0, lines.length);
    if (mutation === 0) lines[Math.min(at, lines.length - 1)] = `${random.pick(KEYS)}: ${random.pick(VALUES)}`;
    else if (mutation === 1) lines.splice(at, 0, `${random.pick(KEYS)}: ${random.pick(VALUES)}`);
    else if (mutation === 2) lines.splice(at, 1);
    else if (mutation === 3) lines.push(aliasBomb());
    // Deep nesting costs the yaml library about 0.3 s per 5,000 levels before it gives up: rarely that deep.
    else if (mutation === 4) lines.push(`extra: ${'['.repeat(random() < 0.01 ? random.int(1000, 5000) : random.int(10, 100))}`);
    else lines.splice(at, 0, `${random.pick(KEYS)}:\n${'  - x\n'.repeat(random.int(1, 50))}`);
  }
  const body = random() < 0.05 ? 'z'.repeat(random.int(15_000, 80_000)) : `${random.pick(['Good roof.', 'Zoe fixed the leak.', '', '  ', '# Heading\n\n> quote', '<script>x</script>', '[link](javascript:x)', ']]> & <'])}${random() < 0.2 ? random.pick(VALUES) : ''}`;
  const text = `${random() < 0.95 ? '---' : random.pick(['--', '+++', ''])}\n${lines.join('\n')}\n---\n${body}\n`;
  if (random() < 0.1) {
    const at = random.int(0, text.length);
    return text.slice(0, at) + String.fromCharCode(random.int(0, 0xffff)) + text.slice(at + random.int(0, 3));
  }
  return text;
}

function fileName(index: number): string {
  const roll = random();
  if (roll < 0.9) return `r${index}.md`;
  return `${random.pick(['Bad_Name', 'new\nline', 'tab\there', 'esc\u001b[2J', 'bidi\u202e', 'é', ' space', '-x-', 'UPPER', 'a'.repeat(200)])}${index}.md`;
}

function checkResult(result: ContentResult, names: ReadonlySet<string>, label: string): void {
  if (result.ok) return;
  for (const problem of result.problems) {
    if (!names.has(problem.file)) throw new Error(`${label}: a problem names ${JSON.stringify(problem.file)}, which is no input`);
    if (typeof problem.message !== 'string' || problem.message === '') throw new Error(`${label}: empty message`);
  }
  const report = formatProblems(result.problems);
  if (report.split('\n').length !== result.problems.length + 1) throw new Error(`${label}: a problem takes more than one line:\n${report.slice(0, 2000)}`);
}

function checkFeed(result: ContentResult, label: string): void {
  if (!result.ok) return;
  const xml = atomFeed(buildSite(result.content, 'https://fuzz.example', () => []));
  const parser = new SaxesParser();
  let error: Error | undefined;
  parser.on('error', (e) => (error ??= e));
  parser.write(xml).close();
  if (error) throw new Error(`${label}: accepted content made an ill-formed feed: ${error.message}`);
}

let maxInputMs = 0;
let peakHeap = 0;
const timed = <T>(run: () => T): T => {
  const started = performance.now();
  const value = run();
  maxInputMs = Math.max(maxInputMs, performance.now() - started);
  peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
  return value;
};

const inputs = Array.from({ length: job.files }, (_, i) => ({ name: fileName(i), text: reviewText() }));
let specialEntries = 0;
let accepted = 0;
let checked = 0;

try {
  // Phase A: the loader on real folders.
  const perBatch = Math.ceil(job.files / job.batches);
  for (let batch = 0; batch < job.batches; batch++) {
    const label = `seed ${job.seed} batch ${batch}`;
    const root = path.join(job.dir, `batch-${batch}`);
    rmSync(root, { recursive: true, force: true });
    mkdirSync(path.join(root, 'reviews'), { recursive: true });
    writeFileSync(path.join(root, 'business.json'), job.businessJson);
    const names = new Set(['business.json', 'faq.md', 'summary.md', 'aspects.json']);
    for (const { name, text } of inputs.slice(batch * perBatch, (batch + 1) * perBatch)) {
      writeFileSync(path.join(root, 'reviews', name), text);
      names.add(`reviews/${name}`);
    }
    const special: string[] = [];
    const add = (name: string, make: (full: string) => void) => {
      make(path.join(root, 'reviews', name));
      special.push(`reviews/${name}`);
      names.add(`reviews/${name}`);
    };
    add(`zero-${batch}.md`, (full) => symlinkSync('/dev/zero', full));
    add(`urandom-${batch}.md`, (full) => symlinkSync('/dev/urandom', full));
    add(`loop-${batch}.md`, (full) => symlinkSync(full, full));
    add(`up-${batch}.md`, (full) => symlinkSync('..', full));
    add(`gone-${batch}.md`, (full) => symlinkSync('/nonexistent/file.md', full));
    add(`dir-${batch}.md`, (full) => mkdirSync(full));
    add(`big-${batch}.md`, (full) => writeFileSync(full, Buffer.alloc(64 * 1024 + random.int(1, 100_000), 'a')));
    if (batch % 5 === 0) add(`fifo-${batch}.md`, (full) => execFileSync('mkfifo', [full]));
    specialEntries += special.length;
    const result = timed(() => validateContent(readContentFiles(root)));
    if (result.ok) throw new Error(`${label}: a folder with links, FIFOs and oversized files was accepted`);
    checkResult(result, names, label);
    for (const name of special) {
      if (!result.problems.some((p) => p.file === name)) throw new Error(`${label}: ${name} was not listed as a problem`);
    }
    rmSync(root, { recursive: true, force: true });
    post({ kind: 'progress', done: (batch + 1) * perBatch, label });
  }
  // Phase B: every `alone`-th file on its own, and the feed of each one accepted.
  const business: ContentFile = { path: 'business.json', text: job.businessJson };
  inputs.forEach(({ name, text }, i) => {
    if (i % job.alone !== 0) return;
    const label = `seed ${job.seed} file ${i} (${JSON.stringify(name)})`;
    const decoded = typeof text === 'string' ? text : text.toString('utf8');
    const result = timed(() => validateContent({ business, reviews: [{ path: `reviews/${name}`, text: decoded }] }));
    timed(() => checkFeed(result, label));
    checkResult(result, new Set(['business.json', `reviews/${name}`]), label);
    checked++;
    if (result.ok) accepted++;
    if (i % 250 === 0) post({ kind: 'progress', done: i, label });
  });
  post({ kind: 'done', inputs: inputs.length, checkedAlone: checked, accepted, loaderRuns: job.batches, specialEntries, maxInputMs: Math.round(maxInputMs), peakHeapMiB: Math.round(peakHeap / 2 ** 20) });
} catch (error) {
  post({ kind: 'failure', label: 'fuzz', message: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) });
}
