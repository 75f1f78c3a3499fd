import { describe, expect, it } from 'vitest';
import { createAnalyzer, createRuleAnalyzer } from '../../../src/domain/insights/absa/index.ts';

// Issue 14 item 3: problems that predate the job or belong to another party (a previous roofer,
// the home inspector, the storm) are not negative aspects of this company; a repaired problem is
// the repair's aspect, positive when the repair is praised. Each rule holds for the rules alone
// and for the analyzer as published (rules + learned layer).
const analyzers = [
  ['rules alone', createRuleAnalyzer()],
  ['published analyzer', createAnalyzer()],
] as const;

const negatives = (labels: readonly { aspect: string; sentiment: string }[]): string[] =>
  labels.filter((l) => l.sentiment === 'negative').map((l) => l.aspect);
const labels = (labels: readonly { aspect: string; sentiment: string }[]): string[] => labels.map((l) => `${l.aspect}:${l.sentiment}`);

describe.each(analyzers)('problems from before the job (%s)', (_, analyzer) => {
  it('a problem caused by a storm is not a negative aspect', () => {
    expect(negatives(analyzer.analyzeSentence('Ten feet of gutter had pulled away from the fascia after the ice storm, which is why we called.').labels)).toEqual([]);
    expect(negatives(analyzer.analyzeSentence('The leak was from a tree limb that punched through the deck in the storm.').labels)).toEqual([]);
  });

  it('a problem from before they were hired is not a negative aspect, even in the clause before the marker', () => {
    expect(negatives(analyzer.analyzeSentence('The old roof was leaking in three places before we called them.').labels)).toEqual([]);
    expect(negatives(analyzer.analyzeSentence('We had a leak in the kitchen when we moved in.').labels)).toEqual([]);
  });

  it('a problem left by a previous roofer is not a negative aspect', () => {
    expect(negatives(analyzer.analyzeSentence('The leak over the porch turned out to be from a gutter apron the last guy never installed.').labels)).toEqual([]);
  });

  it('a repaired problem is the repair’s aspect, positive when the repair is praised', () => {
    expect(labels(analyzer.analyzeSentence('The previous roofer left the flashing loose, and they fixed it properly.').labels)).toEqual(['workmanship:positive']);
    // The repair praised for its speed: timeliness (the learned layer may also read the repair
    // itself as work done, workmanship positive); never the storm's damage as a negative.
    const storm = labels(analyzer.analyzeSentence('The storm tore off half the shingles, and they had it fixed in a day.').labels);
    expect(storm).toContain('timeliness:positive');
    expect(storm.filter((l) => !l.endsWith(':positive'))).toEqual([]);
  });

  it('their own faults stay negative next to the same words', () => {
    expect(negatives(analyzer.analyzeSentence('The roof leaks worse than before they touched it.').labels)).toEqual(['workmanship']);
    expect(negatives(analyzer.analyzeSentence('They left nails all over the driveway after the job.').labels)).toEqual(['cleanup']);
  });
});
