import { describe, expect, it } from 'vitest';
import { ratingLabel, starFills } from '../../src/domain/star-fills.ts';

describe('starFills', () => {
  it('fills whole stars, then the share of the next one', () => {
    expect(starFills(4.18)).toEqual([1, 1, 1, 1, 0.18]);
    expect(starFills(3.5)).toEqual([1, 1, 1, 0.5, 0]);
    expect(starFills(2.99)).toEqual([1, 1, 0.99, 0, 0]);
  });

  it('keeps to the five stars at the ends of the scale', () => {
    expect(starFills(5)).toEqual([1, 1, 1, 1, 1]);
    expect(starFills(1)).toEqual([1, 0, 0, 0, 0]);
    expect(starFills(0)).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('ratingLabel', () => {
  it('says the rating as written on the page', () => {
    expect(ratingLabel(4.18)).toBe('Rated 4.18 out of 5');
    expect(ratingLabel(4.1)).toBe('Rated 4.10 out of 5');
    expect(ratingLabel(5)).toBe('Rated 5 out of 5');
  });
});
