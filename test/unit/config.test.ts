import { describe, expect, it } from 'vitest';
import { loadConfig, siteUrlNote } from '../../src/server/config.ts';

describe('SITE_URL follows PORT when it is not set', () => {
  it('defaults to this machine at PORT', () => {
    expect(loadConfig({}).SITE_URL).toBe('http://127.0.0.1:4321');
    expect(loadConfig({ PORT: '4322' }).SITE_URL).toBe('http://127.0.0.1:4322');
    // PORT=0 picks a free port only when listening: the default stays, and serve says so (below).
    expect(loadConfig({ PORT: '0' }).SITE_URL).toBe('http://127.0.0.1:4321');
  });

  it('keeps a SITE_URL that is given, whatever PORT says', () => {
    expect(loadConfig({ PORT: '4322', SITE_URL: 'https://reviews.example.com/' }).SITE_URL).toBe('https://reviews.example.com');
  });
});

describe('siteUrlNote', () => {
  it('speaks up when a loopback SITE_URL names another port', () => {
    expect(siteUrlNote('http://127.0.0.1:4321', 40123)).toMatch(/point to http:\/\/127\.0\.0\.1:4321 \(SITE_URL\), not to port 40123/);
    expect(siteUrlNote('http://localhost:4321', 4322)).toBeDefined();
  });

  it('stays quiet when they agree, or when SITE_URL is a public address behind a proxy', () => {
    expect(siteUrlNote('http://127.0.0.1:4322', 4322)).toBeUndefined();
    expect(siteUrlNote('https://reviews.example.com', 4321)).toBeUndefined();
  });
});
