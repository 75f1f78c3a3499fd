import { describe, expect, it } from 'vitest';
import { denialUrl, notificationHeaders, verificationUrl } from '../../../src/domain/websub/messages.ts';
import { isValidSignature, signatureHeader } from '../../../src/domain/websub/signature.ts';

const body = Buffer.from('The quick brown fox jumps over the lazy dog');

describe('X-Hub-Signature', () => {
  it('is the HMAC-SHA256 of the body in hex (RFC 4231 style vector)', () => {
    expect(signatureHeader('key', body)).toBe('sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8');
  });

  it('verifies the right secret and body only', () => {
    const header = signatureHeader('s3cret', body);
    expect(isValidSignature(header, 's3cret', body)).toBe(true);
    expect(isValidSignature(header, 'other', body)).toBe(false);
    expect(isValidSignature(header, 's3cret', Buffer.from('tampered'))).toBe(false);
    expect(isValidSignature(undefined, 's3cret', body)).toBe(false);
  });
});

describe('messages to a callback', () => {
  it('keeps the callback query string and appends the hub parameters', () => {
    const url = new URL(
      verificationUrl('https://sub.example/cb?feed=42&x=a%20b', { mode: 'subscribe', topic: 'https://s.example/feed.xml', challenge: 'abc', leaseSeconds: 3600 }),
    );
    expect(url.searchParams.get('feed')).toBe('42');
    expect(url.searchParams.get('x')).toBe('a b');
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k.startsWith('hub.')))).toEqual({
      'hub.mode': 'subscribe',
      'hub.topic': 'https://s.example/feed.xml',
      'hub.challenge': 'abc',
      'hub.lease_seconds': '3600',
    });
  });

  it('says lease 0 when confirming an unsubscribe', () => {
    const url = new URL(verificationUrl('https://sub.example/cb', { mode: 'unsubscribe', topic: 't', challenge: 'c', leaseSeconds: 3600 }));
    expect(url.searchParams.get('hub.lease_seconds')).toBe('0');
  });

  it('tells a dropped callback why', () => {
    const url = new URL(denialUrl('https://sub.example/cb?k=v', 'https://s.example/reviews.json', 'too many failures'));
    expect([...url.searchParams]).toEqual([
      ['k', 'v'],
      ['hub.mode', 'denied'],
      ['hub.topic', 'https://s.example/reviews.json'],
      ['hub.reason', 'too many failures'],
    ]);
  });

  it('sends type, length, one Link with hub and self, and the signature only with a secret', () => {
    const input = { hubUrl: 'https://s.example/api/websub/hub', topicUrl: 'https://s.example/feed.xml', contentType: 'application/atom+xml', body };
    expect(notificationHeaders(input)).toEqual({
      'Content-Type': 'application/atom+xml',
      'Content-Length': String(body.length),
      Link: '<https://s.example/api/websub/hub>; rel="hub", <https://s.example/feed.xml>; rel="self"',
    });
    expect(notificationHeaders({ ...input, secret: 'key' })['X-Hub-Signature']).toBe(signatureHeader('key', body));
  });
});
