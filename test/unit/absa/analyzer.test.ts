import { describe, expect, it } from 'vitest';
import { ASPECT_IDS, createRuleAnalyzer } from '../../../src/domain/insights/absa/index.ts';
import type { SentenceResult } from '../../../src/domain/insights/absa/index.ts';

const analyzer = createRuleAnalyzer();

/** The labels of a sentence as `aspect:sentiment` strings, in canonical aspect order. */
function labels(text: string): string[] {
  return analyzer.analyzeSentence(text).labels.map((l) => `${l.aspect}:${l.sentiment}`);
}

function overall(text: string): string {
  return analyzer.analyzeSentence(text).overall;
}

describe('negation', () => {
  it('"not a single nail left behind" is positive cleanup', () => {
    expect(labels('Not a single nail left behind.')).toEqual(['cleanup:positive']);
  });
  it('"didn\'t call back" is negative communication', () => {
    expect(labels("They didn't call back.")).toEqual(['communication:negative']);
  });
  it('"never called back" is negative communication', () => {
    expect(labels('They never called back after the estimate.')).toEqual(['communication:negative']);
  });
  it('a broad negator reaches past the subject ("no one ever called us back")', () => {
    expect(labels('No one ever called us back.')).toEqual(['communication:negative']);
  });
  it('"no complaints" is positive, with no aspect', () => {
    expect(labels('No complaints.')).toEqual([]);
    expect(overall('No complaints.')).toBe('positive');
  });
  it('"never had a leak since" is positive workmanship', () => {
    expect(labels('Never had a leak since.')).toEqual(['workmanship:positive']);
  });
  it('"not cheap" is negative price', () => {
    expect(labels('Not cheap, I will say that much.')).toEqual(['price:negative']);
  });
  it('negated positive: "not very careful" is negative', () => {
    expect(labels('The crew was not very careful with the gutters.')).toEqual(['workmanship:negative']);
  });
  it('negation scope ends at a comma and a new clause', () => {
    expect(labels("They didn't finish on time, and the cleanup was great.")).toEqual([
      'timeliness:negative',
      'cleanup:positive',
    ]);
  });
  it('negation scope ends at a contrast word', () => {
    expect(labels('Not cheap, but the crew was great.')).toEqual(['price:negative', 'professionalism:positive']);
  });
  it('negation does not reach an opinion more than a few words away', () => {
    expect(labels("I didn't expect much given the low price, but the roof is solid.")).toEqual([
      'workmanship:positive',
      'price:positive',
    ]);
  });
});

describe('contrast', () => {
  it('"great roof but they left a mess" splits the sentiment', () => {
    expect(labels('Great roof but they left a mess.')).toEqual(['workmanship:positive', 'cleanup:negative']);
    expect(overall('Great roof but they left a mess.')).toBe('negative');
  });
  it('"although" gives each clause its own sentiment', () => {
    expect(labels('The roof looks great, although the cleanup was slow.')).toEqual([
      'workmanship:positive',
      'cleanup:negative',
    ]);
    expect(overall('The roof looks great, although the cleanup was slow.')).toBe('positive');
  });
  it('"however" after a semicolon', () => {
    expect(labels('The crew was friendly; however, they left nails in the driveway.')).toEqual([
      'cleanup:negative',
      'professionalism:positive',
    ]);
    expect(overall('The crew was friendly; however, they left nails in the driveway.')).toBe('negative');
  });
  it('"except" marks the exception', () => {
    expect(labels('Everything was perfect except the cleanup, which was sloppy.')).toEqual(['cleanup:negative']);
    expect(overall('Everything was perfect except the cleanup, which was sloppy.')).toBe('positive');
  });
  it('the part after "but" decides the overall sentiment', () => {
    expect(overall('Pricey, but worth every penny.')).toBe('positive');
    expect(labels('Pricey, but worth every penny.')).toEqual(['price:positive']);
    expect(overall('They were courteous, but the job dragged on for almost three weeks.')).toBe('negative');
  });
});

describe('intensifiers and diminishers', () => {
  const score = (t: string): number => analyzer.analyzeSentence(t).labels[0]?.score ?? Number.NaN;
  it('"very", "extremely", "super" strengthen', () => {
    expect(score('The crew was very polite.')).toBeGreaterThan(score('The crew was polite.'));
    expect(score('The crew was extremely rude.')).toBeLessThan(score('The crew was rude.'));
    expect(score('The crew was super fast.')).toBeGreaterThan(score('The crew was fast.'));
  });
  it('"slightly", "a bit" weaken but keep the polarity', () => {
    expect(labels('The shingles are slightly uneven.')).toEqual(['workmanship:negative']);
    expect(score('The shingles are slightly uneven.')).toBeGreaterThan(score('The shingles are uneven.'));
    expect(labels('Cleanup was a bit messy.')).toEqual(['cleanup:negative']);
    expect(score('Cleanup was a bit messy.')).toBeGreaterThan(score('Cleanup was messy.'));
  });
  it('a hedge makes a mild opinion neutral', () => {
    expect(labels('The roof is fine I guess.')).toEqual(['workmanship:neutral']);
  });
});

describe('roofing vocabulary', () => {
  it('magnet sweep is cleanup', () => {
    expect(labels('They did a magnet sweep of the yard.')).toEqual(['cleanup:positive']);
  });
  it('flashing and drip edge are workmanship', () => {
    expect(labels('The flashing around the chimney looks perfect.')).toEqual(['workmanship:positive']);
    expect(labels('The drip edge was installed crooked.')).toEqual(['workmanship:negative']);
  });
  it('adjuster and claim are insurance', () => {
    expect(labels('The adjuster approved our claim.')).toEqual(['insurance:positive']);
  });
  it('tarps over plants are cleanup', () => {
    expect(labels('They put tarps over the flower beds so nothing got crushed.')).toEqual(['cleanup:positive']);
  });
  it('decking replaced with no opinion is a neutral workmanship mention', () => {
    expect(labels('They swapped out six sheets of rotted decking.')).toEqual(['workmanship:neutral']);
  });
  it('an adjective takes the aspect of the noun it modifies ("cheap shingles")', () => {
    expect(labels('Cheap shingles, and they are already curling.')).toEqual(['materials:negative']);
  });
  it('a compound cue is not read as an opinion ("drip edge" is not "drips")', () => {
    expect(labels('They handled the insurance claim, including a supplement for the drip edge.')).toEqual([
      'insurance:positive',
    ]);
  });
  it('domain phrases: "still leaks", "hidden fees", "ghosted", "on time", "in one day"', () => {
    expect(labels('The chimney still leaks.')).toEqual(['workmanship:negative']);
    expect(labels('They added hidden fees at the end.')).toEqual(['price:negative']);
    expect(labels('They ghosted us after the deposit.')).toEqual(['communication:negative']);
    expect(labels('They were on time every day.')).toEqual(['timeliness:positive']);
    expect(labels('They finished the whole roof in one day.')).toEqual(['timeliness:positive']);
    expect(labels('The final bill came in under the quote.')).toEqual(['price:positive']);
  });
  it('opinions about another company are ignored', () => {
    expect(
      labels('Compared to the last roofer, who ghosted us for a month, these guys kept us in the loop.'),
    ).toEqual(['communication:positive']);
  });
});

describe('sentences without aspects or without opinions', () => {
  it('no aspect: empty labels, overall from general words', () => {
    expect(labels('We had the roof replaced last October.')).toEqual([]);
    expect(overall('We had the roof replaced last October.')).toBe('neutral');
    expect(labels('Highly recommend!')).toEqual([]);
    expect(overall('Highly recommend!')).toBe('positive');
    expect(labels('Would not use again.')).toEqual([]);
    expect(overall('Would not use again.')).toBe('negative');
  });
  it('an aspect mentioned with no opinion is neutral', () => {
    expect(labels('The adjuster came on Tuesday.')).toEqual(['insurance:neutral']);
    expect(overall('The adjuster came on Tuesday.')).toBe('neutral');
    expect(labels('They installed GAF Timberline shingles in Charcoal.')).toEqual(['materials:neutral']);
  });
  it('a bare mention next to an opinion about another aspect is not labelled', () => {
    expect(labels('Nobody returned my emails after the deposit cleared.')).toEqual(['communication:negative']);
  });
});

describe('clauses', () => {
  it("each clause's sentiment attaches to the aspects in that clause", () => {
    expect(labels('The price was fair and the crew was rude.')).toEqual(['price:positive', 'professionalism:negative']);
    expect(labels('The crew was professional and the cleanup was spotless.')).toEqual([
      'cleanup:positive',
      'professionalism:positive',
    ]);
  });
  it('speed words go to the action they modify', () => {
    expect(labels('They called us back within an hour.')).toEqual(['communication:positive']);
    expect(labels('They were respectful, tidy and fast.')).toEqual([
      'timeliness:positive',
      'cleanup:positive',
      'professionalism:positive',
    ]);
  });
});

describe('result shape', () => {
  it('scores are in [-1, 1] with at most 3 decimals; labels follow ASPECT_IDS order', () => {
    const texts = [
      'Great roof but they left a mess.',
      'The crew was extremely extremely extremely rude and unprofessional and sloppy and late.',
      'Absolutely spotless, perfect, flawless, amazing, wonderful job.',
      '',
    ];
    for (const t of texts) {
      const r: SentenceResult = analyzer.analyzeSentence(t);
      expect(r.text).toBe(t);
      for (const s of [r.score, ...r.labels.map((l) => l.score)]) {
        expect(s).toBeGreaterThanOrEqual(-1);
        expect(s).toBeLessThanOrEqual(1);
        expect(Math.round(s * 1000) / 1000).toBe(s);
      }
      const order = r.labels.map((l) => ASPECT_IDS.indexOf(l.aspect));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });
  it('the empty sentence has no labels and is neutral', () => {
    expect(analyzer.analyzeSentence('')).toEqual({ text: '', labels: [], overall: 'neutral', score: 0 });
  });
});

describe('analyzeText', () => {
  it('splits sentences and lists one aspect entry per (sentence, aspect) with its excerpt', () => {
    const r = analyzer.analyzeText('Great roof, but they left a mess. The adjuster came on Tuesday.\nHighly recommend!');
    expect(r.sentences.map((s) => s.text)).toEqual([
      'Great roof, but they left a mess.',
      'The adjuster came on Tuesday.',
      'Highly recommend!',
    ]);
    expect(r.aspects).toEqual([
      { aspect: 'workmanship', sentiment: 'positive', score: 0.5, confidence: expect.any(Number), excerpt: 'Great roof, but they left a mess.' },
      { aspect: 'cleanup', sentiment: 'negative', score: -0.6, confidence: expect.any(Number), excerpt: 'Great roof, but they left a mess.' },
      { aspect: 'insurance', sentiment: 'neutral', score: 0, confidence: expect.any(Number), excerpt: 'The adjuster came on Tuesday.' },
    ]);
    expect(['positive', 'neutral', 'negative']).toContain(r.overall);
  });
  it('overall follows the balance of the sentences', () => {
    expect(analyzer.analyzeText('Terrible crew. Rude and late. Would not hire again.').overall).toBe('negative');
    expect(analyzer.analyzeText('Wonderful crew. On time and spotless. Highly recommend.').overall).toBe('positive');
    expect(analyzer.analyzeText('').overall).toBe('neutral');
  });
  it('long excerpts are cut at a word boundary with an ellipsis', () => {
    const long = `The crew was rude ${'and kept leaving trash around the yard '.repeat(8)}for days.`;
    const r = analyzer.analyzeText(long);
    const ex = r.aspects[0]?.excerpt ?? '';
    expect(ex.length).toBeLessThanOrEqual(200);
    expect(ex.endsWith('…')).toBe(true);
    expect(long.startsWith(ex.slice(0, -1))).toBe(true);
    expect(long[ex.length - 1]).toBe(' ');
  });
});

describe('confidence', () => {
  it('every label carries a confidence in [0, 1], higher for a clear opinion than for a bare mention', () => {
    const clear = analyzer.analyzeSentence('The crew was extremely rude.').labels[0];
    const bare = analyzer.analyzeSentence('The adjuster came on Tuesday.').labels[0];
    expect(clear?.confidence).toBeGreaterThan(bare?.confidence ?? 1);
    for (const text of ['Great roof, but they left a mess.', 'The roof is fine I guess.', 'They quoted us $9,800.']) {
      for (const l of analyzer.analyzeSentence(text).labels) {
        expect(l.confidence).toBeGreaterThanOrEqual(0);
        expect(l.confidence).toBeLessThanOrEqual(1);
      }
    }
  });
});
