import { describe, expect, it } from 'vitest';
import { publishReport, reviewChanges, reviewLabel } from '../../../src/domain/websub/publish-report.ts';

const review = (id: string, title: string | null, text = 'Great job.') => ({ id, title, text });

describe('what a publish changes', () => {
  it('finds added, changed and removed reviews by id', () => {
    const before = [review('a', 'A'), review('b', 'B'), review('c', 'C')];
    const after = [review('a', 'A'), review('b', 'B', 'Edited.'), review('d', null, 'No title but a long enough text to be cut somewhere past sixty characters.')];
    expect(reviewChanges(before, after)).toEqual({
      added: [{ id: 'd', label: 'No title but a long enough text to be cut somewhere past ...' }],
      changed: [{ id: 'b', label: 'B' }],
      removed: [{ id: 'c', label: 'C' }],
    });
  });

  it('labels a review by its title, else the start of its text', () => {
    expect(reviewLabel(review('x', 'Fast fix'))).toBe('Fast fix');
    expect(reviewLabel(review('x', null, '  Short\n text '))).toBe('Short text');
  });

  it('reports every change and every topic, or that nothing changed', () => {
    const lines = publishReport({ added: [{ id: 'd', label: 'New' }], changed: [], removed: [] }, [
      { url: 'https://s/feed.xml', change: 'changed' },
      { url: 'https://s/reviews.json', change: 'unchanged' },
    ]);
    expect(lines).toEqual([
      'Reviews: 1 added, 0 changed, 0 removed.',
      '  + d: New',
      'Topics changed: 1 of 2.',
      '  changed   https://s/feed.xml',
      '  unchanged https://s/reviews.json',
    ]);
    expect(publishReport({ added: [], changed: [], removed: [] }, [{ url: 'u', change: 'unchanged' }])).toEqual([
      'Nothing changed since the last publish.',
    ]);
  });
});
