/**
 * Reads the request body into `exchange.body`, up to a limit: a body past it is
 * refused in the route's own words (`refuse` makes the 413) and the rest is let
 * flow away unread, so that a large upload costs no memory. A client that goes
 * away before its body ends gets no answer: there is nobody to read it.
 */
import type { IncomingMessage } from 'node:http';
import type { Answer } from '../answer.ts';
import type { Exchange, Outcome, Step } from '../pipeline.ts';

/**
 * Reads the body up to `maxBytes` as UTF-8 text (bad bytes become U+FFFD) and hands it to
 * `done`, or undefined past that; `gone` is called instead when the client goes first.
 */
function readText(req: IncomingMessage, maxBytes: number, done: (text: string | undefined) => void, gone: () => void): void {
  if (Number(req.headers['content-length']) > maxBytes) {
    req.resume();
    return done(undefined);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= maxBytes) return void chunks.push(chunk);
    stop();
    req.resume();
    done(undefined);
  };
  const onEnd = () => {
    stop();
    done((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8'));
  };
  // An aborted upload gives 'error' (ECONNRESET) and 'close'; either way the client is gone.
  const onGone = () => {
    stop();
    gone();
  };
  req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
}

/**
 * One promise per request, settled by what the later steps give back: an async step
 * around a promise of the text made two more, and a microtask each, for every request.
 */
export function requestBody<E extends Exchange>(maxBytes: number, refuse: () => Answer): Step<E> {
  return function readRequestBody(exchange, next) {
    return new Promise<Outcome>((resolve, reject) => {
      const done = (text: string | undefined) => {
        try {
          if (text === undefined) return resolve(refuse());
          exchange.body = text;
          resolve(next());
        } catch (error) {
          reject(error);
        }
      };
      readText(exchange.req, maxBytes, done, () => resolve(undefined));
    });
  };
}
