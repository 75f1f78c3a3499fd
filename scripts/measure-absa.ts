/**
 * Writes src/domain/insights/absa/measurement.json, the analyzer figures that
 * /insights.json publishes, from a run of the evaluation command (never by hand):
 *
 *   node scripts/measure-absa.ts --method "…" --evaluation "…" < labelled.jsonl
 *
 * It runs `node scripts/analyze.ts --eval` on stdin and records its triple and aspect
 * F1 with today's date (UTC). Score it on labelled text the analyzer was not tuned on,
 * and say so in --evaluation.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const target = path.join(root, 'src/domain/insights/absa/measurement.json');

const { values } = parseArgs({ options: { method: { type: 'string' }, evaluation: { type: 'string' } } });
if (!values.method || !values.evaluation) {
  process.stderr.write('usage: node scripts/measure-absa.ts --method "<how the analyzer works>" --evaluation "<what it was scored on>" < labelled.jsonl\n');
  process.exit(2);
}

const run = spawnSync(process.execPath, [path.join(root, 'scripts/analyze.ts'), '--eval'], {
  input: readFileSync(0),
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (run.status !== 0) {
  process.stderr.write(run.stderr);
  process.exit(run.status ?? 1);
}

function figure(pattern: RegExp): number {
  const match = pattern.exec(run.stdout);
  if (!match?.[1]) throw new Error(`the evaluation report has no ${pattern}:\n${run.stdout}`);
  return Number(match[1]);
}

const measurement = {
  method: values.method,
  measured_on: new Date().toISOString().slice(0, 10),
  evaluation: values.evaluation,
  sentences: figure(/^sentences\s+(\d+)/m),
  triple_f1: figure(/^triples .*F1 ([\d.]+)/m),
  aspect_f1: figure(/^aspects .*F1 ([\d.]+)/m),
};
writeFileSync(target, `${JSON.stringify(measurement, null, 2)}\n`);
process.stdout.write(`${path.relative(root, target)}: ${JSON.stringify(measurement)}\n`);
