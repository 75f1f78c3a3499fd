/**
 * Per-client token buckets: a burst of `burst` requests always passes, then
 * `perSecond` tokens come back each second. A limit against abuse, not an
 * accounting system: in memory for one process (SQLite), the same arithmetic
 * in a PostgreSQL table shared by every instance (postgres-store.ts). IPv6 clients are counted per /64,
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

export interface Bucket {
  tokens: number;
  at: number;
}

export function clientKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/** The tokens a bucket holds at `nowMs`: what it had plus what came back since, up to the burst. */
export function refilledTokens(bucket: Bucket, nowMs: number, { burst, perSecond }: Pick<RateLimitOptions, 'burst' | 'perSecond'>): number {
  return Math.min(burst, bucket.tokens + (Math.max(0, nowMs - bucket.at) / 1000) * perSecond);
}

/** Whole seconds until a bucket with `tokens` has one again. */
export function retryAfterSeconds(tokens: number, { perSecond }: Pick<RateLimitOptions, 'perSecond'>): number {
  return Math.max(1, Math.ceil((1 - tokens) / perSecond));
}

export function createRateLimiter(options: RateLimitOptions) {
  const { burst, maxClients } = options;
  const buckets = new Map<string, Bucket>();
  const refill = (bucket: Bucket, nowMs: number) => refilledTokens(bucket, nowMs, options);

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
        return { allowed: false, retryAfterSeconds: retryAfterSeconds(tokens, options) };
      }
      buckets.delete(key);
      if (buckets.size >= maxClients) makeRoom(nowMs);
      buckets.set(key, { tokens: tokens - 1, at: nowMs });
      return { allowed: true };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
