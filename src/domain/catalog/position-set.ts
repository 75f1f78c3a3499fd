/**
 * A fixed set of review positions kept two ways: an ascending list (to walk or
 * slice when it is the only filter) and a bitset (to combine with other sets a
 * word of 32 positions at a time). The catalog prepares one per rating,
 * technician and service; a request ANDs the ones its filters name over its date
 * range, which costs the range / 32 whatever the sets' sizes.
 */
export interface PositionSet {
  readonly list: Int32Array;
  readonly bits: Uint32Array;
}

export function positionSet(list: Int32Array, size: number): PositionSet {
  const bits = new Uint32Array((size + 31) >>> 5);
  for (let i = 0; i < list.length; i++) {
    const position = list[i] as number;
    bits[position >>> 5] = (bits[position >>> 5] as number) | (1 << (position & 31));
  }
  return { list, bits };
}

export function hasPosition(bits: Uint32Array, position: number): boolean {
  return ((bits[position >>> 5] as number) & (1 << (position & 31))) !== 0;
}

/** The positions of `list` that are in every set, in order. */
export function keepMembers(list: Int32Array, sets: readonly PositionSet[]): Int32Array {
  const out = new Int32Array(list.length);
  let n = 0;
  next: for (let i = 0; i < list.length; i++) {
    const position = list[i] as number;
    for (const set of sets) if (!hasPosition(set.bits, position)) continue next;
    out[n++] = position;
  }
  return out.subarray(0, n);
}

function bitCount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** The positions in [low, high) that are in every set, as bits in `scratch` (which it overwrites in that range). */
export function intersectRange(sets: readonly PositionSet[], low: number, high: number, scratch: Uint32Array): void {
  const first = low >>> 5;
  const end = (high + 31) >>> 5;
  for (let w = first; w < end; w++) {
    let word = 0xffffffff;
    for (const set of sets) word &= set.bits[w] as number;
    scratch[w] = word;
  }
  if (end > first) {
    scratch[first] = (scratch[first] as number) & (0xffffffff << (low & 31));
    if (high & 31) scratch[end - 1] = (scratch[end - 1] as number) & (0xffffffff >>> (32 - (high & 31)));
  }
}

/**
 * Counts the positions set in `bits` within [low, high) (those passing `check`,
 * when given) and collects `limit` of them after skipping `offset`, ascending.
 */
export function pageOfBits(
  bits: Uint32Array,
  low: number,
  high: number,
  offset: number,
  limit: number,
  check?: (position: number) => boolean,
): { total: number; page: number[] } {
  const page: number[] = [];
  let total = 0;
  for (let w = low >>> 5, end = (high + 31) >>> 5; w < end; w++) {
    let word = bits[w] as number;
    if (word === 0) continue;
    // Whole words before the page are only counted, unless each position needs its check.
    if (!check && (total + bitCount(word) <= offset || page.length === limit)) {
      total += bitCount(word);
      continue;
    }
    while (word !== 0) {
      const lowest = word & -word;
      word ^= lowest;
      const position = (w << 5) + 31 - Math.clz32(lowest);
      if (check && !check(position)) continue;
      if (total >= offset && page.length < limit) page.push(position);
      total++;
    }
  }
  return { total, page };
}
