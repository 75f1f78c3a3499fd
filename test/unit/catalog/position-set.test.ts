import { describe, expect, it } from 'vitest';
import { hasPosition, intersectRange, pageOfBits, positionSet } from '../../../src/domain/catalog/position-set.ts';

let seed = 11;
const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
const SIZE = 1000;
function randomList(density: number): Int32Array {
  return Int32Array.from({ length: SIZE }, (_, i) => i).filter(() => rnd() < density);
}

describe('position sets', () => {
  it('know their members', () => {
    const set = positionSet(Int32Array.from([0, 31, 32, 999]), SIZE);
    expect([0, 31, 32, 999].every((p) => hasPosition(set.bits, p))).toBe(true);
    expect([1, 30, 33, 998].some((p) => hasPosition(set.bits, p))).toBe(false);
  });

  it('intersect over a range and page through the result like a plain filter', () => {
    const scratch = new Uint32Array(Math.ceil(SIZE / 32));
    for (let round = 0; round < 200; round++) {
      const lists = [randomList(0.6), randomList(0.5), randomList(rnd())];
      const sets = lists.map((list) => positionSet(list, SIZE));
      const low = Math.floor(rnd() * SIZE);
      const high = low + Math.floor(rnd() * (SIZE - low + 1));
      const offset = Math.floor(rnd() * 50);
      const limit = 1 + Math.floor(rnd() * 30);
      const odd = round % 2 === 0 ? undefined : (p: number) => p % 2 === 1;
      const expected = [...(lists[0] as Int32Array)].filter((p) => p >= low && p < high && lists.every((l) => l.includes(p)) && (!odd || odd(p)));
      intersectRange(sets, low, high, scratch);
      expect(pageOfBits(scratch, low, high, offset, limit, odd), `round ${round}`).toEqual({
        total: expected.length,
        page: expected.slice(offset, offset + limit),
      });
    }
  });
});
