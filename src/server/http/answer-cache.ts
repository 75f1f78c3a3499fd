/**
 * A bounded cache of answers by key, least recently used first out. Its owner
 * decides what an answer depends on: the review browser keeps one per served build
 * (src/server/app/page-route.ts), so a switch drops it with the build.
 */
import type { Answer, BytesBody } from './answer.ts';

/** An answer whose body is bytes prepared once, so that writing it copies them and allocates nothing. */
export interface CachedAnswer extends Answer {
  body: BytesBody;
}

export interface AnswerCache {
  get(key: string): CachedAnswer | undefined;
  /** Keeps the answer unless it alone is over the budget; the least recently used go to make room. */
  set(key: string, answer: CachedAnswer): void;
  /** Answers kept, and their bodies' bytes. */
  readonly size: { answers: number; bytes: number };
}

const bodyBytes = (answer: CachedAnswer) => answer.body.bytes.reduce((sum, part) => sum + part.length, 0);

export function answerCache(maxBytes: number): AnswerCache {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first.
  const entries = new Map<string, { answer: CachedAnswer; bytes: number }>();
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
      return entry.answer;
    },
    set(key, answer) {
      drop(key);
      const bytes = bodyBytes(answer);
      if (bytes > maxBytes) return;
      for (const oldest of entries.keys()) {
        if (total + bytes <= maxBytes) break;
        drop(oldest);
      }
      entries.set(key, { answer, bytes });
      total += bytes;
    },
    get size() {
      return { answers: entries.size, bytes: total };
    },
  };
}
