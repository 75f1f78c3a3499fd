/**
 * Aspect-based sentiment analysis of review sentences (JSON lines in, JSON lines out).
 *
 *   npm run --silent analyze < sentences.jsonl
 *     Reads one JSON object per line from stdin; only `id` and `text` are used (blank lines are
 *     skipped). Writes one line per input to stdout, in input order:
 *       {"id":…,"labels":[{"aspect":"cleanup","sentiment":"negative"}],"overall":"negative"}
 *
 *   npm run --silent analyze -- --eval < labelled.jsonl
 *     Input lines also carry gold `labels` and `overall`. Prints ONLY an evaluation report to
 *     stdout (no label lines): precision, recall and F1 over (sentence, aspect, sentiment)
 *     triples and over (sentence, aspect) pairs, overall-sentiment accuracy, the sentence count
 *     and sentences per second (analysis time only, excluding I/O and JSON parsing): the steady
 *     state (best of up to 5 extra passes over the same input, results discarded) and the first,
 *     cold pass (which includes JIT warm-up and dominates for small files).
 *     Add `--errors` to also list the mismatching sentences on stderr.
 *
 * Errors: a line that is not valid JSON, not an object, or has no string `text` (or, with
 * --eval, no `labels` array / `overall` string) is reported on stderr with its line number
 * (plain text gets an example of a right line) and, without --eval, answered in its place
 * with `{"id", "line", "error"}`; the good lines are answered all the same, and the process
 * exits with status 2. Unknown flags also exit 2; `--help` prints the formats.
 */
import { createAnalyzer, evaluate } from '../src/domain/insights/absa/index.ts';
import type { LabelledSentence, SentenceResult } from '../src/domain/insights/absa/index.ts';

interface InputLine {
  readonly line: number;
  readonly id: unknown;
  readonly text: string;
  readonly gold?: LabelledSentence;
}

const USAGE = `Usage: npm run --silent analyze [-- --eval [--errors]] < sentences.jsonl

Aspect-based sentiment of review sentences. Input on stdin: one JSON object per line,
with a "text" string (and optionally an "id" of any kind); blank lines are skipped:
  {"id":1,"text":"Great roof but they left a mess in the flower beds."}
Output on stdout: one JSON line per input line, in the same order:
  {"id":1,"labels":[{"aspect":"workmanship","sentiment":"positive"},{"aspect":"cleanup","sentiment":"negative"}],"overall":"negative"}
Aspects: workmanship, timeliness, communication, price, cleanup, professionalism,
estimate, insurance, warranty, materials; sentiments: positive, neutral, negative.

  --eval    the input lines also carry the right answer ("labels" and "overall");
            prints only a report: precision, recall and F1, accuracy, speed
  --errors  with --eval, also lists the sentences it got wrong (on stderr)
  --help    this text

Each line is answered on its own. A bad line (not JSON, not an object, no "text")
gets an error object in its place, and its number and reason on stderr:
  {"id":null,"line":2,"error":"line 2 is plain text, not JSON. …"}
the good lines are still answered, and the exit status is 2. With --eval every
bad line is reported on stderr and no report is printed (exit status 2).
Plain text to JSON lines, one sentence per line (needs jq):
  jq -R -c '{text: .}' < sentences.txt | npm run --silent analyze
`;

const EXAMPLE_LINE = '{"id":1,"text":"They cleaned up every nail."}';

function fail(message: string): never {
  process.stderr.write(`analyze: ${message}\n`);
  process.exit(2);
}

/** Why a line is not JSON, in words that show what a right one looks like. */
function malformedLine(lineNo: number, raw: string, error: Error): string {
  const trimmed = raw.trim();
  if (!/^[{["\d-]|^(true|false|null)\b/.test(trimmed)) {
    return (
      `line ${lineNo} is plain text, not JSON. Each input line must be one JSON object with a "text" field, e.g.\n` +
      `  ${EXAMPLE_LINE}\n` +
      `(run with --help for the input and output formats, and a one-line way to turn plain text into this form)`
    );
  }
  return `line ${lineNo}: malformed JSON (${error.message}); a line looks like ${EXAMPLE_LINE}`;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A line that cannot be analysed: it gets an error object in the output, in its place. */
interface BadLine {
  readonly line: number;
  readonly id: unknown;
  readonly message: string;
}

/** Each non-blank line read on its own: a bad line never stops the others. */
function parseLines(input: string, withGold: boolean): (InputLine | BadLine)[] {
  const out: (InputLine | BadLine)[] = [];
  const lines = input.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    out.push(parseLine(i + 1, raw, withGold));
  }
  return out;
}

function parseLine(lineNo: number, raw: string, withGold: boolean): InputLine | BadLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { line: lineNo, id: null, message: malformedLine(lineNo, raw, error as Error) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { line: lineNo, id: null, message: `line ${lineNo}: expected a JSON object, e.g. ${EXAMPLE_LINE}` };
  const obj = value as Record<string, unknown>;
  const bad = (message: string): BadLine => ({ line: lineNo, id: obj.id ?? null, message: `line ${lineNo}: ${message}` });
  if (typeof obj.text !== 'string') return bad('missing string field "text"');
  if (!withGold) return { line: lineNo, id: obj.id ?? null, text: obj.text };
  if (!Array.isArray(obj.labels)) return bad('--eval needs a "labels" array');
  if (typeof obj.overall !== 'string') return bad('--eval needs an "overall" string');
  const labels: { aspect: string; sentiment: string }[] = [];
  for (const [j, l] of (obj.labels as unknown[]).entries()) {
    const lab = l as Record<string, unknown> | null;
    if (typeof lab !== 'object' || lab === null || typeof lab.aspect !== 'string' || typeof lab.sentiment !== 'string') {
      return bad(`labels[${j}] needs string "aspect" and "sentiment"`);
    }
    labels.push({ aspect: lab.aspect, sentiment: lab.sentiment });
  }
  const gold = { id: String(obj.id ?? lineNo), labels, overall: obj.overall } as LabelledSentence;
  return { line: lineNo, id: obj.id ?? null, text: obj.text, gold };
}

const isBad = (x: InputLine | BadLine): x is BadLine => 'message' in x;

function pct(x: number): string {
  return x.toFixed(3);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  for (const a of args) if (a !== '--eval' && a !== '--errors') fail(`unknown argument ${JSON.stringify(a)} (expected --eval, --errors or --help)`);
  // Nothing piped in: say what to give rather than wait for a terminal's end of input.
  if (process.stdin.isTTY) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const evalMode = args.includes('--eval');
  const showErrors = args.includes('--errors');

  const parsed = parseLines(await readStdin(), evalMode);
  const bad = parsed.filter(isBad);
  for (const line of bad) process.stderr.write(`analyze: ${line.message}\n`);
  // A score over part of the labelled set would mislead: --eval reports every bad line and stops.
  if (evalMode && bad.length > 0) process.exit(2);
  const inputs = parsed.filter((x): x is InputLine => !isBad(x));
  const analyzer = createAnalyzer();

  const t0 = performance.now();
  const results: SentenceResult[] = inputs.map((x) => analyzer.analyzeSentence(x.text));
  const elapsedMs = performance.now() - t0;

  if (!evalMode) {
    let next = 0;
    const out = parsed.map((x) => {
      if (isBad(x)) return JSON.stringify({ id: x.id, line: x.line, error: x.message.replace(/\s*\n\s*/g, ' ') });
      const r = results[next++];
      return JSON.stringify({
        id: x.id,
        labels: (r?.labels ?? []).map((l) => ({ aspect: l.aspect, sentiment: l.sentiment })),
        overall: r?.overall ?? 'neutral',
      });
    });
    process.stdout.write(out.length > 0 ? `${out.join('\n')}\n` : '');
    if (bad.length > 0) process.exitCode = 2;
    return;
  }

  const gold = inputs.map((x) => x.gold as LabelledSentence);
  const predicted = inputs.map((x, i) => ({ id: String(x.id), labels: results[i]?.labels ?? [], overall: results[i]?.overall ?? 'neutral' }));
  const report = evaluate(gold, predicted);
  // Throughput: the first (cold, JIT-warming) pass above, and the steady state = the best of a
  // few more passes over the same input (at most 5, and about a second in total).
  let bestMs = elapsedMs;
  let spent = 0;
  for (let pass = 0; pass < 5 && spent < 1000 && inputs.length > 0; pass += 1) {
    const start = performance.now();
    for (const x of inputs) analyzer.analyzeSentence(x.text);
    const ms = performance.now() - start;
    spent += ms;
    bestMs = Math.min(bestMs, ms);
  }
  const rate = (ms: number): string => (ms > 0 ? String(Math.round(inputs.length / (ms / 1000))) : 'n/a');
  const lines = [
    `sentences            ${report.sentences}`,
    `triples  (sentence, aspect, sentiment)  P ${pct(report.triples.precision)}  R ${pct(report.triples.recall)}  F1 ${pct(report.triples.f1)}  (tp ${report.triples.truePositives}, fp ${report.triples.falsePositives}, fn ${report.triples.falseNegatives})`,
    `aspects  (sentence, aspect)             P ${pct(report.aspects.precision)}  R ${pct(report.aspects.recall)}  F1 ${pct(report.aspects.f1)}  (tp ${report.aspects.truePositives}, fp ${report.aspects.falsePositives}, fn ${report.aspects.falseNegatives})`,
    `overall accuracy     ${pct(report.overallAccuracy)}`,
    `sentences/second     ${rate(bestMs)} steady state (${bestMs.toFixed(1)} ms per pass); first pass ${rate(elapsedMs)} (${elapsedMs.toFixed(1)} ms)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  if (showErrors) {
    const fmt = (ls: readonly { aspect: string; sentiment: string }[]): string =>
      ls.map((l) => `${l.aspect}:${l.sentiment}`).sort().join(', ') || '-';
    for (const [i, x] of inputs.entries()) {
      const g = gold[i];
      const p = predicted[i];
      if (g === undefined || p === undefined) continue;
      const gl = fmt(g.labels);
      const pl = fmt(p.labels);
      if (gl !== pl || g.overall !== p.overall) {
        process.stderr.write(`${String(x.id)}  ${x.text}\n   gold: ${gl} | ${g.overall}\n   pred: ${pl} | ${p.overall}\n`);
      }
    }
  }
}

await main();
