/** The bounded answer cache: least recently used out first, never past its bytes. */
import { describe, expect, it } from 'vitest';
import type { ByteString } from '../../../src/domain/byte-string.ts';
import { answerCache, type CachedAnswer } from '../../../src/server/http/answer-cache.ts';

const page = (size: number, fill = 'x'): CachedAnswer => ({ status: 200, headers: {}, body: { bytes: [fill.repeat(size) as ByteString] } });

describe('answerCache', () => {
  it('keeps answers up to its bytes, dropping the least recently used first', () => {
    const cache = answerCache(300);
    cache.set('a', page(100, 'a'));
    cache.set('b', page(100, 'b'));
    cache.set('c', page(100, 'c'));
    expect(cache.get('a')?.body.bytes[0]).toBe('a'.repeat(100));
    cache.set('d', page(100, 'd'));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key) !== undefined)).toEqual([true, true, true]);
    expect(cache.size).toEqual({ answers: 3, bytes: 300 });
  });

  it('makes room for a large answer, and keeps none over the whole budget', () => {
    const cache = answerCache(300);
    for (const key of ['a', 'b', 'c']) cache.set(key, page(100));
    cache.set('big', page(250));
    expect(cache.size).toEqual({ answers: 1, bytes: 250 });
    cache.set('huge', page(301));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toEqual({ answers: 1, bytes: 250 });
  });

  it('replaces an answer under the same key, counting its bytes once', () => {
    const cache = answerCache(300);
    cache.set('a', page(100));
    cache.set('a', page(200));
    expect(cache.size).toEqual({ answers: 1, bytes: 200 });
  });
});
