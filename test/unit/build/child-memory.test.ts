import { describe, expect, it } from 'vitest';
import { astroEnv, childNodeFlags } from '../../../src/build/child-memory.ts';

describe("the build children's memory settings", () => {
  it('caps the young generation unless the operator sets it in NODE_OPTIONS', () => {
    expect(childNodeFlags({})).toEqual(['--max-semi-space-size=16']);
    expect(childNodeFlags({ NODE_OPTIONS: '--enable-source-maps' })).toEqual(['--max-semi-space-size=16']);
    expect(childNodeFlags({ NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=64' })).toEqual([]);
    expect(childNodeFlags({ NODE_OPTIONS: '--max_semi_space_size=8' })).toEqual([]);
  });

  it("tells Astro's allocator to give freed pages back, keeping the operator's own settings and the rest of the environment", () => {
    expect(astroEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', MIMALLOC_PURGE_DELAY: '0', MIMALLOC_ARENA_EAGER_COMMIT: '0' });
    expect(astroEnv({ MIMALLOC_PURGE_DELAY: '10' }).MIMALLOC_PURGE_DELAY).toBe('10');
  });
});
