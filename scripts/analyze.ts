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
 * --eval, no `labels` array / `overall` string) is reported on stderr with its line number and
 * the process exits with status 2 (plain text gets an example of a right line). Unknown flags
 * also exit 2; `--help` prints the formats.
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

A bad line is reported with its number on stderr, and the exit status is 2.
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

function parseLines(input: string, withGold: boolean): InputLine[] {
  const out: InputLine[] = [];
  const lines = input.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const lineNo = i + 1;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      fail(malformedLine(lineNo, raw, error as Error));
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`line ${lineNo}: expected a JSON object, e.g. ${EXAMPLE_LINE}`);
    const obj = value as Record<string, unknown>;
    if (typeof obj.text !== 'string') fail(`line ${lineNo}: missing string field "text"`);
    let gold: LabelledSentence | undefined;
    if (withGold) {
      if (!Array.isArray(obj.labels)) fail(`line ${lineNo}: --eval needs a "labels" array`);
      if (typeof obj.overall !== 'string') fail(`line ${lineNo}: --eval needs an "overall" string`);
      const labels = obj.labels.map((l: unknown, j: number) => {
        const lab = l as Record<string, unknown> | null;
        if (typeof lab !== 'object' || lab === null || typeof lab.aspect !== 'string' || typeof lab.sentiment !== 'string') {
          fail(`line ${lineNo}: labels[${j}] needs string "aspect" and "sentiment"`);
        }
        return { aspect: lab.aspect, sentiment: lab.sentiment };
      });
      gold = { id: String(obj.id ?? lineNo), labels, overall: obj.overall };
    }
    out.push({ line: lineNo, id: obj.id ?? null, text: obj.text, ...(gold ? { gold } : {}) });
  }
  return out;
}

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

  const inputs = parseLines(await readStdin(), evalMode);
  const analyzer = createAnalyzer();

  const t0 = performance.now();
  const results: SentenceResult[] = inputs.map((x) => analyzer.analyzeSentence(x.text));
  const elapsedMs = performance.now() - t0;

  if (!evalMode) {
    const out = inputs.map((x, i) => {
      const r = results[i];
      return JSON.stringify({
        id: x.id,
        labels: (r?.labels ?? []).map((l) => ({ aspect: l.aspect, sentiment: l.sentiment })),
        overall: r?.overall ?? 'neutral',
      });
    });
    process.stdout.write(out.length > 0 ? `${out.join('\n')}\n` : '');
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
