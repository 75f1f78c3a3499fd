/**
 * Which network addresses a callback may point at. Only globally routable unicast
 * passes: loopback, private, link-local, carrier-grade NAT, multicast, documentation
 * and every other special range would let a subscriber aim the hub at our own
 * network (SSRF). IPv4-mapped IPv6 is judged as the IPv4 address it carries.
 */
import ipaddr from 'ipaddr.js';

/** The range name of an address ("unicast" for public ones), or undefined when it is no IP address. */
export function addressRange(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return undefined;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
}

export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** True when the host part of a URL is an IP literal (which skips DNS, so it must be checked as is). */
export function isIpLiteral(hostname: string): boolean {
  return ipaddr.isValid(hostname.replace(/^\[|\]$/g, ''));
}
