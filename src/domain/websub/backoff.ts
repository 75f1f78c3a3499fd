/**
 * What happens after a failed delivery attempt. The seed's rule: the third
 * consecutive failure ends the subscription. The waits before the 2nd and 3rd
 * attempts come from HUB_RETRY_DELAYS_MS; a shorter list repeats its last wait.
 */
export const MAX_CONSECUTIVE_FAILURES = 3;

export type AfterFailure = { action: 'retry'; delayMs: number } | { action: 'remove' };

/** `failures` counts the consecutive failed attempts, the one that just failed included. */
export function afterFailedAttempt(failures: number, retryDelaysMs: readonly number[]): AfterFailure {
  if (failures >= MAX_CONSECUTIVE_FAILURES) return { action: 'remove' };
  const index = Math.min(Math.max(failures - 1, 0), retryDelaysMs.length - 1);
  return { action: 'retry', delayMs: retryDelaysMs[index] ?? 0 };
}
