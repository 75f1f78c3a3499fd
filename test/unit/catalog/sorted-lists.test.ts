import { describe, expect, it } from 'vitest';
import { intersect, lowerBound, restrictTo, union } from '../../../src/domain/catalog/sorted-lists.ts';

let seed = 7;
const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
function randomList(size: number, max: number): Int32Array {
  const set = new Set<number>();
  while (set.size < size) set.add(Math.floor(rnd() * max));
  return Int32Array.from(set).sort();
}

describe('sorted position lists', () => {
  it('intersect equals the set intersection, merging or galloping', () => {
    for (const [a, b] of [[50, 60], [3, 5000], [0, 10], [400, 400]] as const) {
      const x = randomList(a, 6000);
      const y = randomList(b, 6000);
      const expected = [...x].filter((v) => y.includes(v));
      expect([...intersect(x, y)]).toEqual(expected);
      expect([...intersect(y, x)]).toEqual(expected);
    }
  });

  it('union equals the sorted set union and leaves the scratch space clean', () => {
    const marks = new Uint8Array(1000);
    const lists = [randomList(30, 1000), randomList(200, 1000), randomList(1, 1000)];
    const expected = [...new Set(lists.flatMap((l) => [...l]))].sort((p, q) => p - q);
    expect([...union(lists, marks)]).toEqual(expected);
    expect(marks.every((m) => m === 0)).toBe(true);
    expect(union([lists[0] as Int32Array], marks)).toBe(lists[0]);
    expect(union([], marks)).toHaveLength(0);
  });

  it('restrictTo keeps the positions within [low, high)', () => {
    const list = Int32Array.from([1, 4, 4, 9, 12, 30]);
    expect([...restrictTo(list, 4, 12)]).toEqual([4, 4, 9]);
    expect([...restrictTo(list, 31, 40)]).toEqual([]);
    expect([...restrictTo(list, 0, 100)]).toEqual([...list]);
    expect(lowerBound(list, 10)).toBe(4);
  });
});
