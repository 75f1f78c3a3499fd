import { describe, expect, it } from 'vitest';
import { clientAddress, hopAddress, NO_TRUSTED_PROXIES, parseTrustedProxies } from '../../src/domain/client-address.ts';
import { loadConfig } from '../../src/server/config.ts';

const proxies = parseTrustedProxies('127.0.0.1, 10.0.0.0/8, ::1, fd00::/8');
const viaXff = (peer: string, xForwardedFor: string) => clientAddress(peer, { xForwardedFor }, proxies);
const viaForwarded = (peer: string, forwarded: string) => clientAddress(peer, { forwarded }, proxies);

describe('TRUST_PROXY values', () => {
  it('takes addresses and CIDR ranges of both families', () => {
    expect(proxies.ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual(['127.0.0.1/32', '10.0.0.0/8', '::1/128', 'fd00::/8']);
    expect(parseTrustedProxies('').ranges).toEqual([]);
  });

  it('names every bad entry in one start-up error', () => {
    const bad = () => loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/33,proxy.internal,10.1,::1/129' });
    expect(bad).toThrow(/TRUST_PROXY: "10\.0\.0\.0\/33", "proxy\.internal", "10\.1", "::1\/129" are not an IP address or CIDR range/);
    expect(() => loadConfig({ TRUST_PROXY: '300.1.1.1' })).toThrow(/TRUST_PROXY: "300\.1\.1\.1" is not an IP address or CIDR range; give a comma list such as/);
  });

  it('unset, trusts nobody: the connection is the client', () => {
    expect(loadConfig({}).TRUST_PROXY.ranges).toEqual([]);
    expect(clientAddress('127.0.0.1', { xForwardedFor: '198.51.100.7' }, NO_TRUSTED_PROXIES)).toBe('127.0.0.1');
  });
});

describe('the client behind trusted proxies', () => {
  it('ignores forged headers from a peer that is not trusted', () => {
    expect(viaXff('198.51.100.20', '203.0.113.5')).toBe('198.51.100.20');
    expect(viaForwarded('198.51.100.20', 'for=203.0.113.5')).toBe('198.51.100.20');
    expect(viaXff('2001:db8::20', '203.0.113.5')).toBe('2001:db8::20');
  });

  it('takes the right-most hop that is not trusted, whatever the client put before it', () => {
    // The client forged "1.2.3.4"; the proxy appended the address it saw.
    expect(viaXff('127.0.0.1', '1.2.3.4, 198.51.100.7')).toBe('198.51.100.7');
    // Through two trusted proxies.
    expect(viaXff('127.0.0.1', '1.2.3.4, 198.51.100.7, 10.1.2.3')).toBe('198.51.100.7');
    expect(viaForwarded('127.0.0.1', 'for=1.2.3.4, for=198.51.100.7;proto=https, for=10.1.2.3')).toBe('198.51.100.7');
  });

  it('falls back to the left-most hop when every hop is trusted, and to the peer without a header', () => {
    expect(viaXff('127.0.0.1', '10.0.0.9, 10.0.0.8')).toBe('10.0.0.9');
    expect(clientAddress('127.0.0.1', {}, proxies)).toBe('127.0.0.1');
    expect(viaXff('127.0.0.1', '  ')).toBe('127.0.0.1');
  });

  it('stops at a hop that is not an address: the proxy that reported it is the client', () => {
    expect(viaXff('127.0.0.1', '198.51.100.7, garbage')).toBe('127.0.0.1');
    expect(viaXff('127.0.0.1', '198.51.100.7, 10.0.0.5, unknown')).toBe('127.0.0.1');
    expect(viaXff('127.0.0.1', 'garbage, 10.0.0.5')).toBe('10.0.0.5');
    expect(viaForwarded('127.0.0.1', 'for=unknown')).toBe('127.0.0.1');
    expect(viaForwarded('127.0.0.1', 'for=_hidden, for=10.0.0.5')).toBe('10.0.0.5');
    // Spellings ipaddr.js would read as IPv4 but no proxy writes.
    expect(viaXff('127.0.0.1', '1')).toBe('127.0.0.1');
    expect(viaXff('127.0.0.1', '0x7f.1')).toBe('127.0.0.1');
  });

  it('treats a malformed Forwarded header as no information past the proxy', () => {
    expect(viaForwarded('127.0.0.1', 'for="198.51.100.7')).toBe('127.0.0.1');
    expect(viaForwarded('127.0.0.1', 'for 198.51.100.7')).toBe('127.0.0.1');
    expect(viaForwarded('127.0.0.1', 'proto=https;by=10.0.0.1')).toBe('127.0.0.1');
    expect(viaForwarded('127.0.0.1', 'for=198.51.100.7;;')).toBe('127.0.0.1');
    // A bad element left of a good one does not matter: the walk stops at the good one.
    expect(viaForwarded('127.0.0.1', 'for="oops, for=198.51.100.7')).toBe('127.0.0.1');
    expect(viaForwarded('127.0.0.1', 'nonsense, for=198.51.100.7')).toBe('198.51.100.7');
  });

  it('reads IPv6 and ports as RFC 7239 writes them', () => {
    expect(viaForwarded('127.0.0.1', 'for="[2001:db8:cafe::17]:4711"')).toBe('2001:db8:cafe::17');
    expect(viaForwarded('127.0.0.1', 'For="[2001:db8:cafe::17]"')).toBe('2001:db8:cafe::17');
    expect(viaForwarded('127.0.0.1', 'for="198.51.100.7:4711";proto=https;host="reviews.example.com"')).toBe('198.51.100.7');
    expect(viaForwarded('127.0.0.1', 'for=198.51.100.7, for="[fd00::5]"')).toBe('198.51.100.7');
    expect(viaXff('::1', '2001:db8::5, fd00::1')).toBe('2001:db8::5');
    expect(viaXff('::1', '[2001:db8::5]:443')).toBe('2001:db8::5');
    expect(viaXff('127.0.0.1', '198.51.100.7:51234')).toBe('198.51.100.7');
  });

  it('compares an IPv4-mapped peer (a dual-stack socket) as IPv4', () => {
    expect(viaXff('::ffff:127.0.0.1', '198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddress('::ffff:198.51.100.20', { xForwardedFor: '1.2.3.4' }, proxies)).toBe('198.51.100.20');
  });

  it('reads X-Forwarded-For when both headers are there', () => {
    expect(clientAddress('127.0.0.1', { xForwardedFor: '198.51.100.7', forwarded: 'for=203.0.113.1' }, proxies)).toBe('198.51.100.7');
  });

  it('parses a hop on its own', () => {
    expect(hopAddress('[::1]:80')?.toString()).toBe('::1');
    expect(hopAddress('2001:db8::1')?.toString()).toBe('2001:db8::1');
    expect(hopAddress('999.1.1.1')).toBeUndefined();
    expect(hopAddress('')).toBeUndefined();
  });
});
