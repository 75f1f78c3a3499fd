/**
 * Reads the request body into `exchange.body`, up to a limit: a body past it is
 * refused in the route's own words (`refuse` makes the 413) and the rest is let
 * flow away unread, so that a large upload costs no memory. A client that goes
 * away before its body ends gets no answer: there is nobody to read it.
 */
import type { IncomingMessage } from 'node:http';
import type { Answer } from '../answer.ts';
import type { Exchange, Step } from '../pipeline.ts';

class ClientGone extends Error {}

/** The body up to `maxBytes` as UTF-8 text (bad bytes become U+FFFD); undefined past that. */
function readText(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(req.headers['content-length']) > maxBytes) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
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
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8'));
    };
    // An aborted upload gives 'error' (ECONNRESET) and 'close'; either way the client is gone.
    const onGone = () => {
      stop();
      reject(new ClientGone());
    };
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

export function requestBody<E extends Exchange>(maxBytes: number, refuse: () => Answer): Step<E> {
  return async function readRequestBody(exchange, next) {
    let text: string | undefined;
    try {
      text = await readText(exchange.req, maxBytes);
    } catch (error) {
      if (error instanceof ClientGone) return undefined;
      throw error;
    }
    if (text === undefined) return refuse();
    exchange.body = text;
    return next();
  };
}
