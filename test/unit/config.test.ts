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

describe('MCP_RESULT_MAX_TOKENS', () => {
  it('defaults to 20,000 tokens and takes a whole number from 2,000 to 1,000,000', () => {
    expect(loadConfig({}).MCP_RESULT_MAX_TOKENS).toBe(20_000);
    expect(loadConfig({ MCP_RESULT_MAX_TOKENS: '8000' }).MCP_RESULT_MAX_TOKENS).toBe(8000);
  });

  it.each([
    ['abc', 'must be a whole number of tokens'],
    ['2500.5', 'must be a whole number of tokens'],
    ['1999', 'must be at least 2000'],
    ['2000000', 'must be at most 1000000'],
  ])('refuses %j at start, naming the variable and what is allowed', (value, words) => {
    expect(() => loadConfig({ MCP_RESULT_MAX_TOKENS: value })).toThrow(new RegExp(`MCP_RESULT_MAX_TOKENS: ${words}`));
  });

  it('warns that MCP_RESULT_MAX_CHARS is no longer read', async () => {
    const { mcpSettings } = await import('../../src/server/mcp/settings.ts');
    const warnings: string[] = [];
    mcpSettings(loadConfig({ MCP_RESULT_MAX_CHARS: '60000', MCP_SESSION_SECRET: 'a-secret-of-sixteen+' }), (line) => warnings.push(line));
    expect(warnings).toEqual([expect.stringMatching(/^MCP_RESULT_MAX_CHARS is no longer read: .*MCP_RESULT_MAX_TOKENS/)]);
  });
});
