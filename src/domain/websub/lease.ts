/**
 * Lease maths. The hub decides every lease: a subscriber may ask for a length,
 * which is clamped so that nobody holds a slot forever nor renews every minute.
 */
export const DEFAULT_LEASE_SECONDS = 10 * 24 * 3600;
export const MIN_LEASE_SECONDS = 3600;
export const MAX_LEASE_SECONDS = 30 * 24 * 3600;

/** The lease granted for a requested `hub.lease_seconds` (none: the default). */
export function grantedLeaseSeconds(requested?: number): number {
  if (requested === undefined) return DEFAULT_LEASE_SECONDS;
  return Math.min(MAX_LEASE_SECONDS, Math.max(MIN_LEASE_SECONDS, Math.trunc(requested)));
}

/** When a lease granted at `nowMs` ends (epoch milliseconds). */
export function leaseExpiresAt(nowMs: number, leaseSeconds: number): number {
  return nowMs + leaseSeconds * 1000;
}
