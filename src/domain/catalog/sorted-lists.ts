/**
 * Ascending lists of review positions (Int32Array): the currency of the catalog's
 * indexes. Restricting one to a range is a binary search; intersections gallop
 * when one list is much shorter than the other.
 */
export const EMPTY_LIST = new Int32Array(0);

/** The first index of `list` whose value is at least `value`, searching from `from`. */
export function lowerBound(list: Int32Array, value: number, from = 0): number {
  let low = from;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The part of `list` within [low, high), without copying. */
export function restrictTo(list: Int32Array, low: number, high: number): Int32Array {
  return list.subarray(lowerBound(list, low), lowerBound(list, high));
}

export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Int32Array(short.length);
  let n = 0;
  if (long.length > 8 * short.length) {
    let from = 0;
    for (const value of short) {
      from = lowerBound(long, value, from);
      if (from === long.length) break;
      if (long[from] === value) out[n++] = value;
    }
    return out.subarray(0, n);
  }
  let i = 0;
  let j = 0;
  while (i < short.length && j < long.length) {
    const x = short[i] as number;
    const y = long[j] as number;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

/**
 * Every position in any of the lists, ascending. `marks` is scratch space of at
 * least the largest position + 1, all zero, and left all zero.
 */
export function union(lists: readonly Int32Array[], marks: Uint8Array): Int32Array {
  if (lists.length === 0) return EMPTY_LIST;
  if (lists.length === 1) return lists[0] as Int32Array;
  let size = 0;
  let low = marks.length;
  let high = -1;
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      const position = list[i] as number;
      if (marks[position] === 0) {
        marks[position] = 1;
        size++;
      }
    }
    if (list.length) {
      low = Math.min(low, list[0] as number);
      high = Math.max(high, list[list.length - 1] as number);
    }
  }
  const out = new Int32Array(size);
  let n = 0;
  for (let position = low; position <= high; position++) {
    if (marks[position] === 1) {
      marks[position] = 0;
      out[n++] = position;
    }
  }
  return out;
}
