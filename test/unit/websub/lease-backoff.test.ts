import { describe, expect, it } from 'vitest';
import { afterFailedAttempt, MAX_CONSECUTIVE_FAILURES } from '../../../src/domain/websub/backoff.ts';
import { grantedLeaseSeconds, leaseExpiresAt } from '../../../src/domain/websub/lease.ts';

describe('leases', () => {
  it('grants 10 days when none is asked for', () => {
    expect(grantedLeaseSeconds()).toBe(864_000);
  });

  it.each([
    [0, 3600],
    [59, 3600],
    [3600, 3600],
    [86_400, 86_400],
    [2_592_000, 2_592_000],
    [9_999_999_999, 2_592_000],
  ])('clamps a request of %i s to %i s', (requested, granted) => {
    expect(grantedLeaseSeconds(requested)).toBe(granted);
  });

  it('ends the lease its length after it was granted', () => {
    expect(leaseExpiresAt(1_000, 3600)).toBe(3_601_000);
  });
});

describe('after a failed delivery attempt', () => {
  it('waits the configured delays before the 2nd and 3rd attempts, then removes', () => {
    expect(afterFailedAttempt(1, [100, 200])).toEqual({ action: 'retry', delayMs: 100 });
    expect(afterFailedAttempt(2, [100, 200])).toEqual({ action: 'retry', delayMs: 200 });
    expect(afterFailedAttempt(3, [100, 200])).toEqual({ action: 'remove' });
    expect(MAX_CONSECUTIVE_FAILURES).toBe(3);
  });

  it('repeats the last delay of a short list', () => {
    expect(afterFailedAttempt(2, [500])).toEqual({ action: 'retry', delayMs: 500 });
  });
});
