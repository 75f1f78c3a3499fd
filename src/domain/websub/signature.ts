/** `X-Hub-Signature` of a notification: an HMAC of the exact body bytes with the subscriber's secret. */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_ALGORITHM = 'sha256';

export function signatureHeader(secret: string, body: Uint8Array): string {
  return `${SIGNATURE_ALGORITHM}=${createHmac(SIGNATURE_ALGORITHM, secret).update(body).digest('hex')}`;
}

/** What a subscriber does with the header: recompute and compare in constant time. */
export function isValidSignature(header: string | undefined, secret: string, body: Uint8Array): boolean {
  if (!header) return false;
  const expected = Buffer.from(signatureHeader(secret, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
