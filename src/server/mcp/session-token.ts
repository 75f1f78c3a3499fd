/**
 * `Mcp-Session-Id` values that any instance can check without shared state: the
 * issue time and a random nonce, signed with HMAC-SHA256. A forged, altered or
 * expired id is refused (the endpoint answers 404 and the client initializes
 * again). Nothing is stored: the tools are stateless, the id only ties a client's
 * requests together and lets it learn that it must start over.
 *
 * Format: `v1.<issued, seconds since epoch, base 36>.<nonce>.<signature>`, all
 * visible ASCII (base64url), as the transport requires.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an id stays valid: a working day of an agent, after which it re-initializes. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
/** How far in the future an issue time may lie: clocks of instances differ a little. */
const CLOCK_SKEW_SECONDS = 5 * 60;
const VERSION = 'v1';
/** How many checked ids are remembered before the memory starts over (a few hundred KiB at most). */
const SIGNED_IDS_KEPT = 4096;
const TOKEN = /^v1\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

export type SessionCheck = 'valid' | 'expired' | 'invalid';

export interface SessionTokens {
  issue(): string;
  verify(id: string): SessionCheck;
}

export interface SessionTokenOptions {
  secret: string | Buffer;
  /** Milliseconds since the epoch; injected so that tests control time. */
  now?: () => number;
  ttlSeconds?: number;
}

export function sessionTokens({ secret, now = Date.now, ttlSeconds = SESSION_TTL_SECONDS }: SessionTokenOptions): SessionTokens {
  // A key object made once: handing createHmac the raw secret would import it again on every call.
  const key = createSecretKey(typeof secret === 'string' ? Buffer.from(secret) : secret);
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  const seconds = () => Math.floor(now() / 1000);
  // Ids whose signature checked out, with their issue time: a client sends the same id with every
  // request, and an HMAC per request was a tenth of a tool call. Only genuine ids get in; age is checked every time.
  const signedIds = new Map<string, number>();
  return {
    issue() {
      const payload = `${VERSION}.${seconds().toString(36)}.${randomBytes(12).toString('base64url')}`;
      return `${payload}.${sign(payload)}`;
    },
    verify(id) {
      let issued = signedIds.get(id);
      if (issued === undefined) {
        const match = TOKEN.exec(id);
        if (!match) return 'invalid';
        const [, issuedText, nonce, signature] = match as unknown as [string, string, string, string];
        const expected = Buffer.from(sign(`${VERSION}.${issuedText}.${nonce}`));
        const given = Buffer.from(signature);
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
        issued = parseInt(issuedText, 36);
        if (signedIds.size >= SIGNED_IDS_KEPT) signedIds.clear();
        signedIds.set(id, issued);
      }
      const age = seconds() - issued;
      if (age < -CLOCK_SKEW_SECONDS) return 'invalid';
      return age >= ttlSeconds ? 'expired' : 'valid';
    },
  };
}
