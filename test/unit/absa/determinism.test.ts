import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAnalyzer, defaultVocabulary } from '../../../src/domain/insights/absa/index.ts';

const here = new URL('.', import.meta.url);
const holdout = readFileSync(new URL('holdout.jsonl', here), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => (JSON.parse(l) as { text: string }).text);

describe('determinism', () => {
  it('gives identical results on repeated calls and across analyzer instances', () => {
    const a = createAnalyzer();
    const b = createAnalyzer();
    const first = holdout.map((t) => a.analyzeSentence(t));
    const again = holdout.map((t) => a.analyzeSentence(t));
    const other = [...holdout].reverse().map((t) => b.analyzeSentence(t)).reverse();
    expect(again).toEqual(first);
    expect(other).toEqual(first);
    expect(a.analyzeText(holdout.join(' '))).toEqual(b.analyzeText(holdout.join(' ')));
  });
  it('does not mutate the vocabulary', () => {
    const before = JSON.stringify(defaultVocabulary);
    const a = createAnalyzer();
    for (const t of holdout) a.analyzeSentence(t);
    expect(JSON.stringify(defaultVocabulary)).toBe(before);
  });
  it('is fast (well over 10,000 sentences per second on short review sentences)', () => {
    const a = createAnalyzer();
    for (const t of holdout) a.analyzeSentence(t); // warm up
    const n = 20_000;
    const start = performance.now();
    for (let i = 0; i < n; i += 1) a.analyzeSentence(holdout[i % holdout.length] ?? '');
    const perSecond = n / ((performance.now() - start) / 1000);
    // A generous floor so a loaded CI machine does not flake; typical runs are ~25-30k/s.
    expect(perSecond).toBeGreaterThan(5_000);
  });
});
