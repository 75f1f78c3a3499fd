/**
 * Per-client token buckets: a burst of `burst` requests always passes, then
 * `perSecond` tokens come back each second. In memory and per process: a limit
 * against abuse, not an accounting system. IPv6 clients are counted per /64,
 * since one host usually owns a whole /64.
 */
import ipaddr from 'ipaddr.js';

export interface RateLimitOptions {
  burst: number;
  perSecond: number;
  /** Clients remembered at most; the oldest full buckets are forgotten first. */
  maxClients: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

export function clientKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

export function createRateLimiter({ burst, perSecond, maxClients }: RateLimitOptions) {
  const buckets = new Map<string, Bucket>();

  function refill(bucket: Bucket, nowMs: number): number {
    return Math.min(burst, bucket.tokens + ((nowMs - bucket.at) / 1000) * perSecond);
  }

  /** Makes room: full buckets first (forgetting them changes nothing), else the least recently seen. */
  function makeRoom(nowMs: number): void {
    for (const [key, bucket] of buckets) {
      if (refill(bucket, nowMs) >= burst) buckets.delete(key);
      if (buckets.size < maxClients) return;
    }
    const oldest = buckets.keys().next();
    if (!oldest.done) buckets.delete(oldest.value);
  }

  return {
    take(key: string, nowMs: number): RateDecision {
      const bucket = buckets.get(key) ?? { tokens: burst, at: nowMs };
      const tokens = refill(bucket, nowMs);
      if (tokens < 1) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perSecond)) };
      }
      buckets.delete(key);
      if (buckets.size >= maxClients) makeRoom(nowMs);
      buckets.set(key, { tokens: tokens - 1, at: nowMs });
      return { allowed: true };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
