/**
 * `npm run bench -- absa`: sentences per second of the ABSA analyzer as the build uses it (the
 * rules plus the learned layer) against the rules alone, on every labelled sentence in data/absa,
 * in alternating rounds so both see the same machine load. Issue 14 asks for at least 10,000
 * sentences/s; the ratio says what the learned layer costs. ROUNDS=n changes the round count.
 */
import { readAllLabelled } from '../scripts/absa-data.ts';
import { createAnalyzer, createRuleAnalyzer } from '../src/domain/insights/absa/index.ts';
import type { Analyzer } from '../src/domain/insights/absa/index.ts';
import { fmt, markdownTable } from './support/table.ts';

const texts = readAllLabelled().map((s) => s.text);
const rounds = Number(process.env.ROUNDS ?? 5);
const contenders: [string, Analyzer][] = [
  ['rules alone', createRuleAnalyzer()],
  ['analyzer (rules + learned layer)', createAnalyzer()],
];

function pass(analyzer: Analyzer): number {
  const start = performance.now();
  for (const t of texts) analyzer.analyzeSentence(t);
  return performance.now() - start;
}

for (const [, a] of contenders) pass(a); // warm up (JIT)
const best = contenders.map(() => Infinity);
for (let r = 0; r < rounds; r += 1) {
  for (const [i, [, a]] of contenders.entries()) best[i] = Math.min(best[i] as number, pass(a));
}
const rate = (ms: number): number => texts.length / (ms / 1000);
const baseline = rate(best[0] as number);
console.log(`${fmt(texts.length)} sentences, best of ${rounds} alternating rounds\n`);
console.log(
  markdownTable(
    ['analyzer', 'sentences/s', 'vs rules alone'],
    contenders.map(([name], i) => [name, fmt(rate(best[i] as number)), `${(rate(best[i] as number) / baseline).toFixed(2)}x`]),
  ),
);
