/**
 * The IANA special-purpose address registries (IPv4 and IPv6, as of 2025), with
 * multicast, broadcast and the reserved blocks beside them. An address belongs to
 * the most specific block that holds it; `globallyReachable` is the registry's own
 * column, so the few anycast services inside a special block (PCP, TURN, AS112)
 * stay reachable while the block around them does not. `embedsIPv4` marks the
 * prefixes whose last or middle 32 bits name an IPv4 host the packets end up at
 * (mapped, NAT64, 6to4): such an address is public only when its block is and
 * the IPv4 address it carries is too.
 */
export interface AddressBlock {
  cidr: string;
  /** How a person would name the block, e.g. "a loopback address". */
  name: string;
  globallyReachable: boolean;
  /** Where the carried IPv4 address sits: the last 32 bits, or bits 16-47 (6to4). */
  embedsIPv4?: 'last32' | 'bits16to47';
}

const block = (cidr: string, name: string, globallyReachable = false): AddressBlock => ({ cidr, name, globallyReachable });

export const IPV4_BLOCKS: readonly AddressBlock[] = [
  block('0.0.0.0/8', 'a "this network" address (0.0.0.0/8)'),
  block('0.0.0.0/32', 'the unspecified address'),
  block('10.0.0.0/8', 'a private-network address'),
  block('100.64.0.0/10', 'a carrier-grade NAT (shared) address'),
  block('127.0.0.0/8', 'a loopback address'),
  block('169.254.0.0/16', 'a link-local address'),
  block('172.16.0.0/12', 'a private-network address'),
  block('192.0.0.0/24', 'an IETF protocol assignment (192.0.0.0/24)'),
  block('192.0.0.0/29', 'an IPv4 service continuity address'),
  block('192.0.0.8/32', 'the IPv4 dummy address'),
  block('192.0.0.9/32', 'the PCP anycast address', true),
  block('192.0.0.10/32', 'the TURN anycast address', true),
  block('192.0.0.170/32', 'a NAT64/DNS64 discovery address'),
  block('192.0.0.171/32', 'a NAT64/DNS64 discovery address'),
  block('192.0.2.0/24', 'a documentation address'),
  block('192.31.196.0/24', 'an AS112 address', true),
  block('192.52.193.0/24', 'an AMT address', true),
  block('192.88.99.0/24', 'a deprecated 6to4 relay anycast address'),
  block('192.88.99.2/32', 'the 6a44 relay anycast address'),
  block('192.168.0.0/16', 'a private-network address'),
  block('192.175.48.0/24', 'an AS112 direct delegation address', true),
  block('198.18.0.0/15', 'a benchmarking address'),
  block('198.51.100.0/24', 'a documentation address'),
  block('203.0.113.0/24', 'a documentation address'),
  block('224.0.0.0/4', 'a multicast address'),
  block('240.0.0.0/4', 'a reserved address (240.0.0.0/4)'),
  block('255.255.255.255/32', 'the broadcast address'),
];

/** IPv6 global unicast is 2000::/3; everything outside it is refused unless a block below says otherwise. */
export const IPV6_BLOCKS: readonly AddressBlock[] = [
  block('::/0', 'outside IPv6 global unicast (2000::/3)'),
  block('2000::/3', 'a global unicast address', true),
  block('::/128', 'the unspecified address'),
  block('::1/128', 'a loopback address'),
  block('::/96', 'an IPv4-compatible IPv6 address (deprecated)'),
  { ...block('::ffff:0:0/96', 'an IPv4-mapped address', true), embedsIPv4: 'last32' },
  { ...block('64:ff9b::/96', 'a NAT64 address', true), embedsIPv4: 'last32' },
  block('64:ff9b:1::/48', 'a local-use NAT64 address'),
  block('100::/64', 'a discard-only address'),
  block('100:0:0:1::/64', 'a dummy IPv6 prefix address'),
  block('2001::/23', 'an IETF protocol assignment (2001::/23)'),
  block('2001::/32', 'a Teredo address'),
  block('2001:1::1/128', 'the PCP anycast address', true),
  block('2001:1::2/128', 'the TURN anycast address', true),
  block('2001:1::3/128', 'the DNS-SD SRP anycast address', true),
  block('2001:2::/48', 'a benchmarking address'),
  block('2001:3::/32', 'an AMT address', true),
  block('2001:4:112::/48', 'an AS112 address', true),
  block('2001:10::/28', 'a deprecated ORCHID address'),
  block('2001:20::/28', 'an ORCHIDv2 address', true),
  block('2001:30::/28', 'a drone remote ID address', true),
  block('2001:db8::/32', 'a documentation address'),
  { ...block('2002::/16', 'a 6to4 address', true), embedsIPv4: 'bits16to47' },
  block('2620:4f:8000::/48', 'an AS112 direct delegation address', true),
  block('3fff::/20', 'a documentation address'),
  block('5f00::/16', 'a segment routing (SRv6) address'),
  block('fc00::/7', 'a private-network (unique local) address'),
  block('fe80::/10', 'a link-local address'),
  block('fec0::/10', 'a site-local address (deprecated)'),
  block('ff00::/8', 'a multicast address'),
];
