import { describe, expect, it } from 'vitest';
import { createRuleAnalyzer } from '../../../src/domain/insights/absa/index.ts';
import { quoteKinds, NOT_QUOTED, REPORTED, SCARE_QUOTE } from '../../../src/domain/insights/absa/modality.ts';
import { tokenize } from '../../../src/domain/insights/absa/tokenize.ts';

const analyzer = createRuleAnalyzer();
const labels = (text: string): [string, string][] =>
  analyzer.analyzeSentence(text).labels.map((l) => [l.aspect, l.sentiment]);

describe('counterfactuals', () => {
  it('flip a positive opinion: what would have been nice did not happen', () => {
    expect(labels('It was nice to get a heads up before they tore into the siding.')).toEqual([['communication', 'positive']]);
    expect(labels('It would have been nice to get a heads up before they tore into the siding.')).toEqual([['communication', 'negative']]);
  });
  it('are a complaint on their own when no opinion follows', () => {
    expect(labels('They should have cleaned up the nails.')).toEqual([['cleanup', 'negative']]);
    expect(labels('They were supposed to start Monday.')).toEqual([['timeliness', 'negative']]);
    const r = analyzer.analyzeSentence('should have gone with someone else honestly');
    expect(r.labels).toEqual([]);
    expect(r.overall).toBe('negative');
  });
  it('keep a negative opinion negative ("should not leak" means it leaks)', () => {
    expect(labels('A new roof should not leak, period.')).toEqual([['workmanship', 'negative']]);
  });
  it('do not include deontic "should be"', () => {
    expect(analyzer.analyzeSentence("That's how it should be done.").overall).toBe('neutral');
  });
});

describe('remedies', () => {
  it('a damage word after a repair verb describes the problem, not the work', () => {
    expect(labels('The vent caps are cracked.')).toEqual([['materials', 'negative']]);
    expect(labels('Brody fixed two cracked vent caps on the spot.').some(([, s]) => s === 'negative')).toBe(false);
    expect(labels('They found nails in the grass and picked them up.').some(([, s]) => s === 'negative')).toBe(false);
  });
  it('not when the reviewer is the one who found it', () => {
    expect(labels('We found more nails in the grass.')).toEqual([['cleanup', 'negative']]);
  });
});

describe('quotation', () => {
  it('classifies quoted spans by length', () => {
    const tokens = tokenize('They "fixed" it and said "this is the best roof" today');
    const kinds = [...quoteKinds(tokens)];
    const at = (word: string): number => kinds[tokens.findIndex((t) => t.lower === word)] ?? -1;
    expect(at('fixed')).toBe(SCARE_QUOTE);
    expect(at('best')).toBe(REPORTED);
    expect(at('today')).toBe(NOT_QUOTED);
    expect([...quoteKinds(tokenize('an "unclosed quote here'))].every((k) => k === NOT_QUOTED)).toBe(true);
  });
  it('reported speech is not the reviewer opinion', () => {
    expect(labels('The foreman said the crew was the best in town.')).toEqual([['professionalism', 'positive']]);
    expect(labels('The foreman said "this is the best crew in town" and left.')).toEqual([]);
  });
  it('a repair in scare quotes is disputed', () => {
    expect(labels('They came back and resealed the flashing.')).toEqual([['workmanship', 'neutral']]);
    expect(labels('They came back and "resealed" the flashing.')).toEqual([['workmanship', 'negative']]);
  });
});

describe('hedged lukewarm phrases', () => {
  it('"only ok" and "mixed feelings" are neutral', () => {
    expect(labels('Value for money is only ok.')).toEqual([['price', 'neutral']]);
    expect(analyzer.analyzeSentence('Mixed feelings.').overall).toBe('neutral');
  });
});

describe('doubt', () => {
  it('"not sure" negates what follows it', () => {
    expect(labels('The flashing was done right.')).toEqual([['workmanship', 'positive']]);
    expect(labels("I'm not sure the flashing was done right.")).toEqual([['workmanship', 'negative']]);
  });
});
