import { describe, expect, it } from 'vitest';
import { clientKey, createRateLimiter } from '../../../src/domain/websub/rate-limit.ts';

describe('per-client rate limit', () => {
  it('lets a burst of 30 through, then refuses with the wait, and refills over time', () => {
    const limiter = createRateLimiter({ burst: 30, perSecond: 1, maxClients: 100 });
    for (let i = 0; i < 30; i++) expect(limiter.take('a', 0).allowed).toBe(true);
    expect(limiter.take('a', 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b', 0).allowed).toBe(true);
    expect(limiter.take('a', 1000).allowed).toBe(true);
    expect(limiter.take('a', 1000).allowed).toBe(false);
    for (let i = 0; i < 30; i++) expect(limiter.take('a', 100_000).allowed).toBe(true);
  });

  it('forgets clients beyond its size without refusing newcomers', () => {
    const limiter = createRateLimiter({ burst: 2, perSecond: 1, maxClients: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) expect(limiter.take(key, 0).allowed).toBe(true);
  });

  it('counts IPv6 clients per /64 and IPv4 per address', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:bbbb::9'));
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey(undefined)).toBe('unknown');
  });
});
