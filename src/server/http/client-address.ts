/**
 * The client of a request, as every part of the server that counts clients sees it (the
 * hub's rate limit and pending-verification caps, the error log): the connection's
 * address, or, through a proxy TRUST_PROXY names, the address its forwarding header gives.
 */
import type { IncomingMessage } from 'node:http';
import { clientAddress, type TrustedProxies } from '../../domain/client-address.ts';

export type ClientOf = (req: IncomingMessage) => string | undefined;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function clientOf(trusted: TrustedProxies): ClientOf {
  return function clientOfRequest(req) {
    return clientAddress(req.socket.remoteAddress, { forwarded: header(req, 'forwarded'), xForwardedFor: header(req, 'x-forwarded-for') }, trusted);
  };
}
