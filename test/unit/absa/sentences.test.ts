import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../src/domain/insights/absa/index.ts';

describe('splitSentences', () => {
  it('splits on . ! ? and trims', () => {
    expect(splitSentences('  Great crew.  Fast work!   Would I hire them again? Yes.  ')).toEqual([
      'Great crew.',
      'Fast work!',
      'Would I hire them again?',
      'Yes.',
    ]);
  });
  it('keeps titles and street abbreviations inside the sentence', () => {
    expect(splitSentences('Mr. Lopez and Dr. Chan live on Elm St. near us. They loved it.')).toEqual([
      'Mr. Lopez and Dr. Chan live on Elm St. near us.',
      'They loved it.',
    ]);
  });
  it('keeps a.m./p.m. unless a new sentence clearly starts', () => {
    expect(splitSentences('They showed up at 7 a.m. sharp and left at 5 p.m. every day.')).toEqual([
      'They showed up at 7 a.m. sharp and left at 5 p.m. every day.',
    ]);
    expect(splitSentences('They arrived at 7 a.m. The crew was great.')).toEqual([
      'They arrived at 7 a.m.',
      'The crew was great.',
    ]);
  });
  it('keeps e.g. and i.e. inside the sentence', () => {
    expect(splitSentences('Extras, e.g. drip edge, were included. Nice.')).toEqual([
      'Extras, e.g. drip edge, were included.',
      'Nice.',
    ]);
    expect(splitSentences('The hard part, i.e. the chimney, went fine.')).toEqual(['The hard part, i.e. the chimney, went fine.']);
  });
  it('does not split decimals and amounts', () => {
    expect(splitSentences('It was $12.50 a square foot, about 4.5 times less. Good deal.')).toEqual([
      'It was $12.50 a square foot, about 4.5 times less.',
      'Good deal.',
    ]);
  });
  it('handles runs of exclamation and question marks, and ellipses', () => {
    expect(splitSentences('Wow!!! Really?! Yes... They did it.')).toEqual(['Wow!!!', 'Really?!', 'Yes...', 'They did it.']);
  });
  it('treats line breaks and paragraphs as boundaries', () => {
    expect(splitSentences('Great roof\nTerrible cleanup\r\n\r\nWould not hire again')).toEqual([
      'Great roof',
      'Terrible cleanup',
      'Would not hire again',
    ]);
  });
  it('splits lower-case sentence starts after a full stop, and keeps closing quotes', () => {
    expect(splitSentences('the roof is done. they left a mess. He said "call us." We did.')).toEqual([
      'the roof is done.',
      'they left a mess.',
      'He said "call us."',
      'We did.',
    ]);
  });
  it('keeps initials with the name', () => {
    expect(splitSentences('J. Smith ran the crew. Good guy.')).toEqual(['J. Smith ran the crew.', 'Good guy.']);
  });
  it('returns nothing for blank text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\n \t')).toEqual([]);
  });
});
