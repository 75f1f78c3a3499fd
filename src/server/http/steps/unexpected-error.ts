/**
 * The outermost step: an error no step expected is logged with its request and
 * answered with a plain 500, or the connection is cut when the answer has begun.
 * A client that left is not an error: nothing is logged for it.
 */
import type { Step } from '../pipeline.ts';

export const unexpectedError: Step = async ({ req, res }, next) => {
  try {
    return await next();
  } catch (error) {
    if (res.destroyed) return undefined;
    console.error(`Unexpected error answering ${req.method} ${req.url}:`, error);
    if (res.headersSent) return void res.destroy();
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Internal server error\n');
    return undefined;
  }
};
