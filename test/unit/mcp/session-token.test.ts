import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SESSION_TTL_SECONDS, sessionTokens } from '../../../src/server/mcp/session-token.ts';

const START = Date.UTC(2026, 0, 1);

function clock(at = START) {
  let now = at;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('signed session ids', () => {
  it('verifies an id it issued, on any instance with the same secret', () => {
    const time = clock();
    const id = sessionTokens({ secret: 'one secret for all instances', now: time.now }).issue('2025-06-18');
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(sessionTokens({ secret: 'one secret for all instances', now: time.now }).verify(id)).toBe('valid');
  });

  it('issues a different id every time', () => {
    const tokens = sessionTokens({ secret: 'secret secret secret' });
    expect(new Set(Array.from({ length: 20 }, () => tokens.issue('2025-06-18'))).size).toBe(20);
  });

  it('refuses an id signed with another secret', () => {
    const id = sessionTokens({ secret: 'first secret 1234' }).issue('2025-06-18');
    expect(sessionTokens({ secret: 'second secret 123' }).verify(id)).toBe('invalid');
  });

  it('refuses an altered id: issue time, protocol version, nonce or signature', () => {
    const tokens = sessionTokens({ secret: 'secret secret secret' });
    const [format, issued, version, nonce, signature] = tokens.issue('2025-06-18').split('.') as [string, string, string, string, string];
    const flip = (part: string) => (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
    for (const forged of [
      [format, (parseInt(issued, 36) + 1).toString(36), version, nonce, signature],
      [format, issued, '2025-03-26', nonce, signature],
      [format, issued, version, flip(nonce), signature],
      [format, issued, version, nonce, flip(signature)],
      ['v1', issued, version, nonce, signature],
      ['v1', issued, nonce, signature],
      [format, issued, nonce, signature],
    ]) {
      expect(tokens.verify(forged.join('.')), forged.join('.')).toBe('invalid');
    }
  });

  it('carries the protocol version the session negotiated', () => {
    const tokens = sessionTokens({ secret: 'secret secret secret' });
    for (const version of ['2025-03-26', '2025-11-25']) expect(tokens.protocolVersion(tokens.issue(version))).toBe(version);
    expect(() => tokens.issue('latest')).toThrow();
  });

  it('still accepts ids of the v1 format (no version), signed with the same secret', () => {
    const time = clock();
    const secret = 'secret secret secret';
    const payload = `v1.${Math.floor(time.now() / 1000).toString(36)}.AAAAAAAAAAAAAAAA`;
    const v1 = `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    const tokens = sessionTokens({ secret, now: time.now });
    expect(tokens.verify(v1)).toBe('valid');
    expect(tokens.protocolVersion(v1)).toBeUndefined();
  });

  it('refuses junk without throwing', () => {
    const tokens = sessionTokens({ secret: 'secret secret secret' });
    for (const junk of ['', 'abc', 'v1...', 'v1.zzzzzzzzzzzz.AAAAAAAAAAAAAAAA.x', '0'.repeat(10_000), 'v1.1.\u00e9\u00e9.\u00e9']) {
      expect(tokens.verify(junk)).toBe('invalid');
    }
  });

  it('expires after the time to live, and not before', () => {
    const time = clock();
    const tokens = sessionTokens({ secret: 'secret secret secret', now: time.now });
    const id = tokens.issue('2025-06-18');
    time.advance(SESSION_TTL_SECONDS - 1);
    expect(tokens.verify(id)).toBe('valid');
    time.advance(1);
    expect(tokens.verify(id)).toBe('expired');
  });

  it('accepts a little clock skew between instances, not an id from the far future', () => {
    const time = clock();
    const ahead = sessionTokens({ secret: 'secret secret secret', now: () => time.now() + 60_000 }).issue('2025-06-18');
    const farAhead = sessionTokens({ secret: 'secret secret secret', now: () => time.now() + 3_600_000 }).issue('2025-06-18');
    const tokens = sessionTokens({ secret: 'secret secret secret', now: time.now });
    expect(tokens.verify(ahead)).toBe('valid');
    expect(tokens.verify(farAhead)).toBe('invalid');
  });

  it('keeps answering alike once ids are remembered, past the number it remembers', () => {
    const time = clock();
    const tokens = sessionTokens({ secret: 'secret secret secret', now: time.now });
    const ids = Array.from({ length: 5000 }, () => tokens.issue('2025-06-18'));
    expect(ids.map((id) => tokens.verify(id)).every((check) => check === 'valid')).toBe(true);
    expect(ids.map((id) => tokens.verify(id)).every((check) => check === 'valid')).toBe(true);
    const [format, issued, version, nonce, signature] = (ids[4999] as string).split('.') as [string, string, string, string, string];
    expect(tokens.verify([format, issued, version, nonce, signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))].join('.'))).toBe('invalid');
    time.advance(SESSION_TTL_SECONDS);
    expect(tokens.verify(ids[4999] as string)).toBe('expired');
    expect(tokens.verify(ids[0] as string)).toBe('expired');
  });
});
