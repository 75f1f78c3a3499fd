/**
 * A route: one entry of the server's table (routes.ts). It names what it serves,
 * the methods it takes and how the shared steps treat it; its own steps run in
 * front of its handler.
 */
import { compose, type Exchange, type Outcome, type Step } from './pipeline.ts';

export const READ_METHODS = ['GET', 'HEAD'] as const;

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
  match(pathname: string): Record<string, string> | undefined;
  /** The route's own steps, then its handler. */
  readonly handle: (exchange: Exchange) => Promise<Outcome> | Outcome;
}

export interface RouteSpec extends Omit<Route, 'match' | 'handle' | 'malformed'> {
  malformed?: Route['malformed'];
  match?: Route['match'];
  steps?: readonly Step[];
  handle: (exchange: Exchange) => Promise<Outcome> | Outcome;
}

/** A matcher for `path`: a trailing slash is ignored, as everywhere on this site. */
function pathMatcher(path: string): Route['match'] {
  if (path.endsWith('*')) {
    const prefix = path.slice(0, -1);
    return (pathname) => (pathname.startsWith(prefix) ? {} : undefined);
  }
  const names: string[] = [];
  const source = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z]+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const pattern = new RegExp(`^${source}/?$`);
  return (pathname) => {
    const found = pattern.exec(pathname);
    if (!found) return undefined;
    return Object.fromEntries(names.map((name, i) => [name, found[i + 1] as string]));
  };
}

export function route(spec: RouteSpec): Route {
  const { steps = [], handle, ...rest } = spec;
  return { malformed: 'refused', match: pathMatcher(spec.path), ...rest, handle: steps.length === 0 ? handle : compose([...steps, handle]) };
}
