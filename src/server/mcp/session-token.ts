/**
 * `Mcp-Session-Id` values that any instance can check without shared state: the
 * issue time and a random nonce, signed with HMAC-SHA256. A forged, altered or
 * expired id is refused (the endpoint answers 404 and the client initializes
 * again). Nothing is stored: the tools are stateless, the id only ties a client's
 * requests together and lets it learn that it must start over.
 *
 * The id also carries the protocol version the session negotiated, because
 * clients of versions before 2025-06-18 send no `MCP-Protocol-Version` header and
 * what a request may hold (a batch) depends on it.
 *
 * Format: `v2.<issued, seconds since epoch, base 36>.<protocol version>.<nonce>.<signature>`,
 * all visible ASCII (base64url), as the transport requires. Ids of the earlier
 * format, `v1.<issued>.<nonce>.<signature>` (no version), are still accepted.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an id stays valid: a working day of an agent, after which it re-initializes. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
/** How far in the future an issue time may lie: clocks of instances differ a little. */
const CLOCK_SKEW_SECONDS = 5 * 60;
const FORMAT = 'v2';
/** How many checked ids are remembered before the memory starts over (a few hundred KiB at most). */
const SIGNED_IDS_KEPT = 4096;
const TOKEN = /^(v1|v2)\.([0-9a-z]{1,11})\.(?:(\d{4}-\d{2}-\d{2})\.)?([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

export type SessionCheck = 'valid' | 'expired' | 'invalid';

export interface SessionTokens {
  /** A new id for a session that negotiated this protocol version. */
  issue(protocolVersion: string): string;
  verify(id: string): SessionCheck;
  /** The protocol version a (verified) id was issued for; undefined for ids of the v1 format. */
  protocolVersion(id: string): string | undefined;
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
    issue(protocolVersion) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(protocolVersion)) throw new Error(`not a protocol version: ${protocolVersion}`);
      const payload = `${FORMAT}.${seconds().toString(36)}.${protocolVersion}.${randomBytes(12).toString('base64url')}`;
      return `${payload}.${sign(payload)}`;
    },
    verify(id) {
      let issued = signedIds.get(id);
      if (issued === undefined) {
        const match = TOKEN.exec(id);
        if (!match) return 'invalid';
        const [, format, issuedText, protocolVersion, nonce, signature] = match as unknown as [string, string, string, string | undefined, string, string];
        // A v1 id has no version; a v2 id must have one.
        if ((format === 'v2') !== (protocolVersion !== undefined)) return 'invalid';
        const payload = protocolVersion === undefined ? `${format}.${issuedText}.${nonce}` : `${format}.${issuedText}.${protocolVersion}.${nonce}`;
        const expected = Buffer.from(sign(payload));
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
    protocolVersion(id) {
      return TOKEN.exec(id)?.[3];
    },
  };
}
