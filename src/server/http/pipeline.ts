/**
 * A request's way through the server: a list of small steps, each of which may
 * answer or hand on to the next (as Hono's compose.ts does). The steps that hold
 * for every request are composed once around the route table (app.ts); a route
 * adds its own in front of its handler (routes.ts). An answer comes back through
 * the steps that called `next`, so a step can add to it on the way out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from './answer.ts';

/** One request and its response, with what the steps learn of it on the way. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /**
   * The path and query, resolved after a base so that a path starting with `//` stays
   * a path (against no base, `//reviews.json` would name a host).
   */
  url: URL;
  /** The route that serves the request, once routing has chosen it. */
  route?: Route;
  /** The route's path parameters as sent (still percent-encoded). */
  params: Readonly<Record<string, string>>;
  /** The query as sent, when the route takes its malformed pairs escaped (see Route.malformed). */
  rawQuery?: string;
  /** The request body as text, once a body step has read it. */
  body?: string;
}

/**
 * What a step gives back: an answer for the writer, or undefined when the response
 * is written already (a file, a page, a stream) or nothing is left to answer.
 */
export type Outcome = Answer | undefined;
/** A step's result: an outcome now, or later. A step that has nothing to wait for answers at once (no promise, no microtask). */
export type Result = Outcome | Promise<Outcome>;
export type Next = () => Result;
export type Step<E extends Exchange = Exchange> = (exchange: E, next: Next) => Result;

/**
 * The steps as one: each runs when the one before calls `next`; past the last, nothing
 * answers. A step calls `next` at most once, and only the innermost step running can
 * (the ones before it are waiting for it), so one `next` per request serves them all:
 * a closure per step and request was a good part of what the pipeline allocated.
 */
export function compose<E extends Exchange>(steps: readonly Step<E>[]): (exchange: E) => Result {
  return function run(exchange) {
    let index = -1;
    const next = (): Result => {
      const step = steps[++index];
      return step ? step(exchange, next) : undefined;
    };
    return next();
  };
}

/** The parameters of a route without any: one object for every request, never changed. */
export const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** Until the request-target step has read the request's own. */
const NO_URL_YET = new URL('http://localhost/');

export function newExchange(req: IncomingMessage, res: ServerResponse): Exchange {
  return { req, res, url: NO_URL_YET, params: NO_PARAMS };
}

/** A route: one entry of the server's table (src/server/app/routes.ts); `route()` (route.ts) makes one. */
export interface Route {
  /** What it serves, as the route table in docs/architecture.md names it. */
  readonly name: string;
  /** Its path: exact, with `:name` segments, or a prefix ending in `*`; a custom `match` stands for what it describes. */
  readonly path: string;
  /** The methods it serves; any other gets a 405 with Allow. `'any'`: it answers every method itself. */
  readonly methods: readonly string[] | 'any';
  /** `own`: it answers CORS preflights itself (MCP checks origins); otherwise the public preflight answers them. */
  readonly preflight?: 'own';
  /**
   * A query or path that does not percent-decode: `refused` (a JSON 400, before the
   * route), `named` (the route names the parameter at fault), or `escaped` (the
   * route gets its pairs escaped, the query as sent in `exchange.rawQuery`).
   */
  readonly malformed: 'refused' | 'named' | 'escaped';
  /** On-the-fly compression: `if-accepted` (the answer sends its own Vary), `always`, or none. */
  readonly compress?: 'if-accepted' | 'always';
  /** The path parameters of a request to `pathname`, or undefined when the route does not serve it. */
  match(pathname: string): Readonly<Record<string, string>> | undefined;
  /** The route's own steps, then its handler. */
  readonly handle: (exchange: Exchange) => Result;
}
