/** Chooses the first route of the table that serves the request's path. */
import type { Route, Step } from '../pipeline.ts';

export function routing(routes: readonly Route[]): Step {
  return function chooseRoute(exchange, next) {
    for (const route of routes) {
      const params = route.match(exchange.url.pathname);
      if (params === undefined) continue;
      exchange.route = route;
      exchange.params = params;
      return next();
    }
    // The table ends with a route that serves every path.
    throw new Error(`No route serves ${exchange.url.pathname}`);
  };
}
