/**
 * Who the client is, when proxies stand between it and the server. TRUST_PROXY names the
 * proxies (addresses or CIDR ranges); the hops a request passed through are the ones its
 * forwarding header lists, then the connection's peer. Walking them from the right, every
 * trusted hop vouches for the one before it, and the first hop that is not trusted is the
 * client: anything further left was written by the client itself and may be forged.
 *
 * `X-Forwarded-For` is read when present (every common proxy sets it), otherwise
 * `Forwarded` (RFC 7239). A proxy that sets only `Forwarded` must drop a client's
 * `X-Forwarded-For` (deploy/ does so for both headers).
 */
import ipaddr from 'ipaddr.js';

export interface TrustedProxies {
  readonly ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** As configured, for messages and logs. */
  readonly text: string;
}

export const NO_TRUSTED_PROXIES: TrustedProxies = { ranges: [], text: '' };

export class TrustProxyError extends Error {}

/**
 * Parses a comma list of addresses and CIDR ranges ("127.0.0.1, 10.0.0.0/8, ::1, fd00::/8").
 * Every bad entry is named in one error.
 */
export function parseTrustedProxies(value: string): TrustedProxies {
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const bad: string[] = [];
  for (const entry of entries) {
    try {
      const [addressText, bitsText] = entry.split('/') as [string, string | undefined];
      const address = strictAddress(addressText);
      if (address === undefined) throw new TrustProxyError(entry);
      const most = address.kind() === 'ipv4' ? 32 : 128;
      const bits = bitsText === undefined ? most : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
      if (!(bits >= 0 && bits <= most)) throw new TrustProxyError(entry);
      ranges.push([address, bits]);
    } catch {
      bad.push(JSON.stringify(entry));
    }
  }
  if (bad.length > 0) {
    throw new TrustProxyError(
      `${bad.join(', ')} ${bad.length === 1 ? 'is' : 'are'} not an IP address or CIDR range; ` +
        'give a comma list such as "127.0.0.1,::1" or "10.0.0.0/8,fd00::/8"',
    );
  }
  return { ranges, text: entries.join(',') };
}

/** IPv4-mapped IPv6 (::ffff:10.0.0.1, what a dual-stack socket reports) compares as IPv4. */
function normalised(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

function parsedAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return ipaddr.isValid(text) ? normalised(ipaddr.parse(text)) : undefined;
}

function isTrusted(address: ipaddr.IPv4 | ipaddr.IPv6, trusted: TrustedProxies): boolean {
  return trusted.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/**
 * An address as a hop names it, without its port: "203.0.113.7", "203.0.113.7:4711",
 * "[2001:db8::1]:4711", "2001:db8::1". Undefined for anything else ("unknown", an
 * obfuscated "_name", garbage).
 */
export function hopAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const hop = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(hop);
  if (bracketed) return parsedAddress(bracketed[1] as string);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(hop);
  if (withPort) return parsedAddress(withPort[1] as string);
  return /^[0-9a-f:.]+$/i.test(hop) ? strictAddress(hop) : undefined;
}

/** Only the usual spellings: ipaddr.js would also take "1", "0x7f.1" or "010.0.0.1" as IPv4. */
function strictAddress(hop: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (hop.includes(':')) return ipaddr.IPv6.isValid(hop) ? normalised(ipaddr.IPv6.parse(hop)) : undefined;
  return ipaddr.IPv4.isValidFourPartDecimal(hop) ? ipaddr.IPv4.parse(hop) : undefined;
}

/** Splits at commas outside quoted strings; undefined when a quote is left open. */
function splitOutsideQuotes(text: string, separator: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted && char === '\\') {
      current += char + (text[i + 1] ?? '');
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (quoted) return undefined;
  parts.push(current);
  return parts;
}

/** The `for=` node of one Forwarded element, as text; undefined when the element is malformed or has none. */
function forwardedFor(element: string): string | undefined {
  const pairs = splitOutsideQuotes(element, ';');
  if (!pairs) return undefined;
  let node: string | undefined;
  for (const pair of pairs) {
    const match = /^\s*([!#$%&'*+.^_`|~0-9a-z-]+)=("(?:[^"\\]|\\.)*"|[!#$%&'*+.^_`|~0-9a-z:[\]-]+)\s*$/i.exec(pair);
    if (!match) return undefined;
    if ((match[1] as string).toLowerCase() !== 'for') continue;
    const value = match[2] as string;
    node = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
  }
  return node;
}

export interface ForwardingHeaders {
  forwarded?: string | undefined;
  xForwardedFor?: string | undefined;
}

/** The hops the forwarding header lists, left (first) to right (last proxy's peer); undefined entries are not addresses. */
function listedHops({ forwarded, xForwardedFor }: ForwardingHeaders): (ipaddr.IPv4 | ipaddr.IPv6 | undefined)[] {
  if (xForwardedFor !== undefined && xForwardedFor.trim() !== '') return xForwardedFor.split(',').map(hopAddress);
  if (forwarded !== undefined && forwarded.trim() !== '') {
    const elements = splitOutsideQuotes(forwarded, ',');
    if (!elements) return [undefined];
    return elements.map((element) => {
      const node = forwardedFor(element);
      return node === undefined ? undefined : hopAddress(node);
    });
  }
  return [];
}

/**
 * The client's address: the right-most hop that is not a trusted proxy. The connection's
 * peer is the last hop; a header counts only when that peer is trusted. A hop that is not
 * an address ends the walk at the trusted proxy that reported it, which is then the client.
 * Undefined only when the peer's own address is unknown (a closed socket).
 */
export function clientAddress(peer: string | undefined, headers: ForwardingHeaders, trusted: TrustedProxies): string | undefined {
  const peerAddress = peer === undefined ? undefined : parsedAddress(peer);
  if (peerAddress === undefined) return peer;
  if (trusted.ranges.length === 0 || !isTrusted(peerAddress, trusted)) return peerAddress.toString();
  let client = peerAddress;
  const hops = listedHops(headers);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i];
    if (hop === undefined) break;
    client = hop;
    if (!isTrusted(hop, trusted)) break;
  }
  return client.toString();
}
