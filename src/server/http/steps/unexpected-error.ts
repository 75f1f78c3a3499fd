/**
 * The outermost step: an error no step expected is logged with its request and
 * answered with a plain 500, or the connection is cut when the answer has begun.
 * A client that left is not an error: nothing is logged for it.
 */
import type { ServerResponse, IncomingMessage } from 'node:http';
import type { Outcome, Step } from '../pipeline.ts';

function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): Outcome {
  if (res.destroyed) return undefined;
  console.error(`Unexpected error answering ${req.method} ${req.url}:`, error);
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Internal server error\n');
  return undefined;
}

export const unexpectedError: Step = ({ req, res }, next) => {
  try {
    const result = next();
    return result instanceof Promise ? result.catch((error: unknown) => answerFailure(req, res, error)) : result;
  } catch (error) {
    return answerFailure(req, res, error);
  }
};
