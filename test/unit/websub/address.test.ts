/**
 * Every block of the IANA IPv4 and IPv6 special-purpose registries, plus multicast,
 * broadcast and the reserved space: its first and last address, written out here
 * (not derived from the table under test), and the public neighbours just outside.
 */
import { describe, expect, it } from 'vitest';
import { classifyAddress, isIpLiteral, isPublicAddress } from '../../../src/domain/websub/address.ts';

const REFUSED_V4 = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255'],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8', '127.0.0.0', '127.255.255.255'],
  ['169.254.0.0/16', '169.254.0.0', '169.254.255.255'],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255'],
  ['192.0.0.0/29', '192.0.0.1', '192.0.0.7'],
  ['192.0.0.8/32', '192.0.0.8', '192.0.0.8'],
  ['192.0.0.170/32', '192.0.0.170', '192.0.0.171'],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255'],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255'],
  ['192.88.99.2/32', '192.88.99.2', '192.88.99.2'],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255'],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4 multicast', '224.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4 reserved', '240.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32 broadcast', '255.255.255.255', '255.255.255.255'],
] as const;

/** Globally reachable per the registry, inside or beside the special blocks. */
const PUBLIC_V4 = [
  '1.0.0.0', '8.8.8.8', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0',
  '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '191.255.255.255', '192.0.0.9', '192.0.0.10',
  '192.0.1.0', '192.0.3.0', '192.31.196.1', '192.52.193.1', '192.88.98.255', '192.88.100.0', '192.167.255.255',
  '192.169.0.0', '192.175.48.1', '198.17.255.255', '198.20.0.0', '198.51.99.255', '198.51.101.0', '203.0.112.255',
  '203.0.114.0', '223.255.255.255',
];

const REFUSED_V6 = [
  ['::/128 unspecified', '::', '::'],
  ['::1/128 loopback', '::1', '::1'],
  ['::/96 IPv4-compatible', '::127.0.0.1', '::8.8.8.8'],
  ['::ffff:0:0/96 mapped, private inside', '::ffff:10.0.0.1', '::ffff:127.255.255.255'],
  ['64:ff9b::/96 NAT64, private inside', '64:ff9b::10.0.0.1', '64:ff9b::169.254.169.254'],
  ['64:ff9b:1::/48 local NAT64', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64 discard-only', '100::', '100::ffff:ffff:ffff:ffff'],
  ['100:0:0:1::/64 dummy', '100:0:0:1::', '100:0:0:1:ffff:ffff:ffff:ffff'],
  ['2001::/23 IETF assignments', '2001:100::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001::/32 Teredo', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:1::/32 outside the anycast /128s', '2001:1::', '2001:1::4'],
  ['2001:2::/48 benchmarking', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
  ['2001:10::/28 ORCHID', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2002::/16 6to4, private inside', '2002:a00:1::', '2002:7f00:1:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20 documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['5f00::/16 SRv6', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7 unique local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fe80::/10 link-local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10 site-local', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8 multicast', 'ff00::', 'ff02::1'],
  ['below 2000::/3', '::2', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['above 2000::/3', '4000::', 'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
] as const;

const PUBLIC_V6 = [
  '2000::', '2001:200::', '2001:1::1', '2001:1::2', '2001:1::3', '2001:3::', '2001:3:ffff::1', '2001:4:112::1', '2001:20::1',
  '2001:30::1', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::', '2002:808:808::1', '2620:4f:8000::1',
  '2606:4700:4700::1111', '2a00:1450:4001::200e', '3ffe:ffff::1', '3fff:1000::', '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '[2a00:1450:4001::200e]',
];

describe('callback address classification', () => {
  describe.each(REFUSED_V4)('IPv4 %s', (_block, first, last) => {
    it.each([first, last])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));
  });
  describe.each(REFUSED_V6)('IPv6 %s', (_block, first, last) => {
    it.each([first, last])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));
  });
  it.each([...PUBLIC_V4, ...PUBLIC_V6])('accepts public %s', (address) => expect(isPublicAddress(address)).toBe(true));

  it('names what an address is, the carried IPv4 address included', () => {
    expect(classifyAddress('10.0.0.1')?.description).toBe('a private-network address');
    expect(classifyAddress('::127.0.0.1')?.description).toMatch(/IPv4-compatible/);
    expect(classifyAddress('::ffff:169.254.1.1')?.description).toMatch(/IPv4-mapped address of 169\.254\.1\.1 \(a link-local address\)/);
    expect(classifyAddress('64:ff9b::7f00:1')?.description).toMatch(/NAT64 address of 127\.0\.0\.1 \(a loopback address\)/);
    expect(classifyAddress('2002:c0a8:101::')?.description).toMatch(/6to4 address of 192\.168\.1\.1/);
    expect(classifyAddress('fe80::1%eth0')?.public).toBe(false);
    expect(classifyAddress('example.com')).toBeUndefined();
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('example.com')).toBe(false);
  });
});
