/**
 * A bounded cache of answers by key, least recently used first out. Its owner
 * decides what an answer depends on: the review browser keeps one per served build
 * (src/server/app/page-route.ts), so a switch drops it with the build.
 */
import { partsLength, type Answer, type BytesBody } from './answer.ts';

/** An answer whose body is bytes prepared once, so that writing it copies them and allocates nothing. */
export interface CachedAnswer extends Answer {
  body: BytesBody;
}

export interface SizedCache<V> {
  get(key: string): V | undefined;
  /** Keeps the value unless it alone is over the budget; the least recently used go to make room. */
  set(key: string, value: V): void;
  /** Values kept, and their bytes. */
  readonly size: { answers: number; bytes: number };
}

export type AnswerCache = SizedCache<CachedAnswer>;

/** A cache of values of `sizeOf` bytes each, at most `maxBytes` in all. */
export function sizedCache<V>(maxBytes: number, sizeOf: (value: V) => number): SizedCache<V> {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first.
  const entries = new Map<string, { value: V; bytes: number }>();
  let total = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.bytes;
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      drop(key);
      const bytes = sizeOf(value);
      if (bytes > maxBytes) return;
      for (const oldest of entries.keys()) {
        if (total + bytes <= maxBytes) break;
        drop(oldest);
      }
      entries.set(key, { value, bytes });
      total += bytes;
    },
    get size() {
      return { answers: entries.size, bytes: total };
    },
  };
}

export function answerCache(maxBytes: number): AnswerCache {
  return sizedCache<CachedAnswer>(maxBytes, (answer) => partsLength(answer.body.bytes));
}
