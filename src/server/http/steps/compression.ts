/**
 * On-the-fly gzip and brotli for answers made per request (the pre-rendered files
 * are precompressed at build time). The `compression` middleware wraps the
 * response's writes, so it runs before the answer is written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import onHeaders from 'on-headers';
import { encodedEtag } from '../conditional.ts';
import type { Step } from '../pipeline.ts';

const compress = compression({ threshold: 1024 }) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Registered before the compression middleware, so it runs after it has chosen an
 * encoding: compressed bytes must not carry the strong ETag of the plain ones.
 */
function distinguishEncodedEtag(res: ServerResponse): void {
  onHeaders(res, function (this: ServerResponse) {
    const encoding = this.getHeader('Content-Encoding');
    const etag = this.getHeader('ETag');
    if (typeof encoding === 'string' && typeof etag === 'string') this.setHeader('ETag', encodedEtag(etag, encoding));
  });
}

export const compressAnswer: Step = ({ req, res, route }, next) => {
  const mode = route?.compress;
  // `if-accepted`: the answer carries its own Vary, and without Accept-Encoding there is nothing to do.
  if (mode === undefined || (mode === 'if-accepted' && !req.headers['accept-encoding'])) return next();
  distinguishEncodedEtag(res);
  compress(req, res, () => undefined);
  return next();
};
