import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRuleAnalyzer, evaluate } from '../../../src/domain/insights/absa/index.ts';
import type { LabelledSentence } from '../../../src/domain/insights/absa/index.ts';

interface Line extends LabelledSentence {
  readonly text: string;
}

function load(name: string): Line[] {
  return readFileSync(new URL(`../../../data/absa/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
}

// Regression guards of the rule layer on the project's hand-labelled sets in data/absa (written
// before/while the rules were built; see the analyzer README). The learned layer trains on these
// sets, so its own floors are measured on writers it never saw (measured.test.ts).
describe('hand-labelled sets, rules alone', () => {
  const analyzer = createRuleAnalyzer();
  const cases: [string, number][] = [
    ['holdout.jsonl', 0.85],
    ['holdout2.jsonl', 0.85],
    ['holdout3.jsonl', 0.65],
    ['holdout4.jsonl', 0.85],
    ['holdout5.jsonl', 0.72],
    ['holdout6.jsonl', 0.88],
    ['holdout7.jsonl', 0.8],
    // Sentences from content/reviews plus new varied ones, labelled before the analyzer saw them
    // (README "Evaluation"); the frozen split was scored once, after the work split was tuned on.
    ['fresh-work.jsonl', 0.78],
    ['fresh-frozen.jsonl', 0.75],
  ];
  for (const [file, floor] of cases) {
    it(`${file}: triple F1 >= ${floor}`, () => {
      const gold = load(file);
      const predicted = gold.map((g) => {
        const r = analyzer.analyzeSentence(g.text);
        return { id: g.id, labels: r.labels, overall: r.overall };
      });
      const report = evaluate(gold, predicted);
      expect(report.triples.f1).toBeGreaterThanOrEqual(floor);
      expect(report.aspects.f1).toBeGreaterThanOrEqual(report.triples.f1);
    });
  }
  it('every gold line is well formed', () => {
    const aspects = new Set(['workmanship', 'timeliness', 'communication', 'price', 'cleanup', 'professionalism', 'estimate', 'insurance', 'warranty', 'materials']);
    for (const file of cases.map(([f]) => f)) {
      for (const line of load(file)) {
        expect(typeof line.text).toBe('string');
        for (const l of line.labels) {
          expect(aspects.has(l.aspect), `${file} ${String(line.id)}`).toBe(true);
          expect(['positive', 'neutral', 'negative']).toContain(l.sentiment);
        }
      }
    }
  });
});
