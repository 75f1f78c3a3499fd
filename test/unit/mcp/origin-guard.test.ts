import { describe, expect, it } from 'vitest';
import { checkHostAndOrigin, isLoopbackHostname, originPolicy } from '../../../src/server/mcp/origin-guard.ts';

const local = originPolicy({ siteUrl: 'https://reviews.example.com', allowedOrigins: ['https://app.example.org/'], listenHost: '127.0.0.1' });
const publicBind = originPolicy({ siteUrl: 'https://reviews.example.com', allowedOrigins: [], listenHost: '0.0.0.0' });
const addressBind = originPolicy({ siteUrl: 'https://reviews.example.com', allowedOrigins: [], listenHost: '10.0.0.5' });

const check = (policy: typeof local, headers: Record<string, string>) => {
  const given = new Headers(headers);
  return checkHostAndOrigin(given.get('host'), given.get('origin'), policy);
};

describe('loopback names', () => {
  it.each(['localhost', 'LOCALHOST', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1'])('%s is loopback', (name) => {
    expect(isLoopbackHostname(name)).toBe(true);
  });
  it.each(['localhost.evil.com', '128.0.0.1', '127.0.0.256', '[::2]', 'evil.example.com', '0.0.0.0'])('%s is not', (name) => {
    expect(isLoopbackHostname(name)).toBe(false);
  });
});

describe('Host header', () => {
  it('accepts the site host, loopback names and the listening address, with any port', () => {
    for (const host of ['reviews.example.com', 'reviews.example.com.', 'REVIEWS.example.com:443', '127.0.0.1:4321', 'localhost:8080', '[::1]:4321']) {
      expect(check(local, { host }).ok, host).toBe(true);
    }
    expect(check(addressBind, { host: '10.0.0.5:4321' }).ok).toBe(true);
  });

  it('refuses any other host (DNS rebinding) and malformed ones', () => {
    for (const host of ['evil.example.com', 'evil.example.com:4321', '10.0.0.5', 'reviews.example.com.evil.com', 'a b', 'x/y', 'user@reviews.example.com']) {
      const result = check(local, { host });
      expect(result.ok, host).toBe(false);
      if (!result.ok) expect(result.message).toContain('host');
    }
  });

  it('does not take a wildcard bind address for a host name', () => {
    expect(check(publicBind, { host: '0.0.0.0:4321' }).ok).toBe(false);
    expect(check(publicBind, { host: 'reviews.example.com' }).ok).toBe(true);
  });
});

describe('Origin header', () => {
  it('serves requests without Origin (clients that are not browsers)', () => {
    expect(check(local, { host: 'reviews.example.com' })).toEqual({ ok: true, origin: undefined });
  });

  it('allows the site origin and the configured ones, echoing them', () => {
    for (const origin of ['https://reviews.example.com', 'https://app.example.org']) {
      expect(check(local, { host: 'reviews.example.com', origin })).toEqual({ ok: true, origin });
    }
  });

  it('allows loopback origins only when the server listens on loopback', () => {
    const headers = { host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' };
    expect(check(local, headers).ok).toBe(true);
    expect(check(local, { host: 'localhost:4321', origin: 'http://localhost:3000' }).ok).toBe(true);
    expect(check(publicBind, headers).ok).toBe(false);
  });

  it('refuses other origins, a scheme mismatch, null and junk, and says how to allow one', () => {
    for (const origin of ['http://evil.example.com', 'http://reviews.example.com', 'https://reviews.example.com:8443', 'null', 'not a url', 'file:///etc']) {
      const result = check(local, { host: 'reviews.example.com', origin });
      expect(result.ok, origin).toBe(false);
      if (!result.ok) expect(result.message).toContain('MCP_ALLOWED_ORIGINS');
    }
  });
});
