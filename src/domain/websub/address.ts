/**
 * Which network addresses a callback may point at. Only globally reachable unicast
 * passes (see address-ranges.ts): loopback, private, link-local, carrier-grade NAT,
 * multicast, documentation and every other special block would let a subscriber
 * aim the hub at our own network (SSRF). An IPv6 address that carries an IPv4 one
 * (mapped, NAT64, 6to4) is judged as the IPv4 address it carries.
 */
import ipaddr from 'ipaddr.js';
import { IPV4_BLOCKS, IPV6_BLOCKS, type AddressBlock } from './address-ranges.ts';

export interface AddressClass {
  public: boolean;
  /** What the address is, for a message: "a loopback address", "a NAT64 address of 10.0.0.1 (a private-network address)". */
  description: string;
}

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;
type ParsedBlock = AddressBlock & { range: [Parsed, number] };

const parseBlocks = (blocks: readonly AddressBlock[]): ParsedBlock[] =>
  blocks.map((entry) => ({ ...entry, range: ipaddr.parseCIDR(entry.cidr) }));
const V4 = parseBlocks(IPV4_BLOCKS);
const V6 = parseBlocks(IPV6_BLOCKS);

/** The most specific block holding the address. */
function blockOf(address: Parsed): ParsedBlock | undefined {
  let best: ParsedBlock | undefined;
  for (const entry of address.kind() === 'ipv4' ? V4 : V6) {
    if (address.kind() !== entry.range[0].kind() || !address.match(entry.range)) continue;
    if (!best || entry.range[1] > best.range[1]) best = entry;
  }
  return best;
}

function embeddedIPv4(address: ipaddr.IPv6, where: 'last32' | 'bits16to47'): ipaddr.IPv4 {
  const [high, low] = where === 'last32' ? address.parts.slice(6, 8) : address.parts.slice(1, 3);
  return new ipaddr.IPv4([(high ?? 0) >> 8, (high ?? 0) & 0xff, (low ?? 0) >> 8, (low ?? 0) & 0xff]);
}

function classify(address: Parsed): AddressClass {
  const found = blockOf(address);
  if (!found) return { public: true, description: 'a public address' };
  if (found.embedsIPv4 && address.kind() === 'ipv6') {
    const carried = embeddedIPv4(address as ipaddr.IPv6, found.embedsIPv4);
    const inner = classify(carried);
    return {
      public: found.globallyReachable && inner.public,
      description: `${found.name} of ${carried.toString()} (${inner.description})`,
    };
  }
  return { public: found.globallyReachable, description: found.name };
}

const TRAILING_DOTTED_QUAD = /:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * ipaddr.js reads `::127.0.0.1` as the IPv4-mapped `::ffff:127.0.0.1`: a trailing
 * dotted quad is rewritten as the two hex groups it stands for before parsing.
 */
function parseAddress(text: string): Parsed | undefined {
  const bare = text.replace(/^\[|\]$/g, '');
  const groups = bare.includes(':')
    ? bare.replace(TRAILING_DOTTED_QUAD, (whole, ...octets: string[]) => {
        const bytes = octets.slice(0, 4).map(Number);
        if (bytes.some((b) => b > 255)) return whole;
        const [a = 0, b = 0, c = 0, d = 0] = bytes;
        return `:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
      })
    : bare;
  return ipaddr.isValid(groups) ? ipaddr.parse(groups) : undefined;
}

/** What an IP address is and whether it is public; undefined when the text is no IP address. */
export function classifyAddress(address: string): AddressClass | undefined {
  const parsed = parseAddress(address);
  return parsed && classify(parsed);
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address)?.public === true;
}

/** True when the host part of a URL is an IP literal (which skips DNS, so it must be checked as is). */
export function isIpLiteral(hostname: string): boolean {
  return ipaddr.isValid(hostname.replace(/^\[|\]$/g, ''));
}
