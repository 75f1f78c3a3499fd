import { describe, expect, it } from 'vitest';
import { addressRange, isIpLiteral, isPublicAddress } from '../../../src/domain/websub/address.ts';

describe('callback address classification', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.10', '198.51.100.1', '203.0.113.5', '240.0.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '[::1]', '2001:db8::1', '64:ff9b::a00:1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2a00:1450:4001::200e]'])(
    'accepts public %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('names the range, and nothing for a host name', () => {
    expect(addressRange('10.0.0.1')).toBe('private');
    expect(addressRange('::ffff:169.254.1.1')).toBe('linkLocal');
    expect(addressRange('example.com')).toBeUndefined();
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('example.com')).toBe(false);
  });
});
