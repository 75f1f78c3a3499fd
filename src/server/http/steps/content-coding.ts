/**
 * Request bodies are read as they are sent: no route decodes a content coding. A
 * body sent with `Content-Encoding: gzip` (or br, deflate, …) was read as its
 * compressed bytes, so the client was told its JSON or form was malformed, or, when
 * the body was not actually compressed, served as if the header were absent. Such a
 * request is refused instead (415, RFC 9110 15.5.16), naming the coding.
 */
import type { Answer } from '../answer.ts';
import type { Exchange, Step } from '../pipeline.ts';

/** The codings a request body may carry: none, or `identity` (which is the same). */
export const ACCEPTED_REQUEST_CODINGS = 'identity';

/** The request's Content-Encoding when it names anything but identity, else undefined. */
export function unsupportedContentCoding(header: string | null | undefined): string | undefined {
  if (header == null) return undefined;
  const codings = header.split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '');
  return codings.every((coding) => coding === 'identity') ? undefined : header.trim().slice(0, 100);
}

export function contentCodingMessage(coding: string, what: string): string {
  return `Unsupported Media Type: ${what} must be sent uncompressed, without Content-Encoding; this one has Content-Encoding: ${coding}.`;
}

/** Refuses a body with a content coding, in the route's own words (`refuse` makes the 415). */
export function identityCoding<E extends Exchange>(refuse: (coding: string) => Answer): Step<E> {
  return function requireIdentityCoding(exchange, next) {
    const coding = unsupportedContentCoding(exchange.req.headers['content-encoding']);
    return coding === undefined ? next() : refuse(coding);
  };
}
