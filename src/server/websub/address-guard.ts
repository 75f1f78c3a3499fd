/**
 * The SSRF guard. A callback host must resolve only to public addresses; the
 * check runs when a request arrives (to refuse it at once) and again inside every
 * connection (`guardedLookup`), where the checked address is the one connected
 * to, so DNS that changes its answer in between (rebinding) gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { classifyAddress, isIpLiteral } from '../../domain/websub/address.ts';

/** Resolves a host name to every address it has. Injected in tests. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export class RefusedAddressError extends Error {
  readonly code = 'ERR_HUB_REFUSED_ADDRESS';
}

/** Throws when any of the addresses is not public (unless private callbacks are allowed). */
export function assertPublic(hostname: string, addresses: readonly string[], allowPrivate: boolean): void {
  if (allowPrivate) return;
  for (const address of addresses) {
    const found = classifyAddress(address);
    if (!found?.public) {
      const via = address === hostname.replace(/^\[|\]$/g, '') ? '' : ` (resolves to ${address})`;
      const what = found?.description ?? 'no IP address';
      throw new RefusedAddressError(`${hostname}${via} is ${what}; callbacks must be reachable on the public internet`);
    }
  }
}

/** The addresses a callback host stands for, all checked. */
export async function resolveCallbackHost(hostname: string, allowPrivate: boolean, resolve: Resolver, timeoutMs: number): Promise<string[]> {
  if (isIpLiteral(hostname)) {
    const address = hostname.replace(/^\[|\]$/g, '');
    assertPublic(hostname, [address], allowPrivate);
    return [address];
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      resolve(hostname),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no DNS answer for ${hostname} within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    if (addresses.length === 0) throw new Error(`${hostname} has no address`);
    assertPublic(hostname, addresses.map((a) => a.address), allowPrivate);
    return addresses.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

/** A `lookup` for net/tls connections that only ever hands out checked addresses. */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        try {
          if (wanted.length === 0) throw Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' });
          assertPublic(hostname, wanted.map((a) => a.address), allowPrivate);
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '', 0);
          return;
        }
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
        else callback(null, (wanted[0] as LookupAddress).address, (wanted[0] as LookupAddress).family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
