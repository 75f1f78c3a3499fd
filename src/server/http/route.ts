/**
 * A route: one entry of the server's table (routes.ts). It names what it serves,
 * the methods it takes and how the shared steps treat it; its own steps run in
 * front of its handler.
 */
import { compose, NO_PARAMS, type Exchange, type Result, type Route, type Step } from './pipeline.ts';

export const READ_METHODS = ['GET', 'HEAD'] as const;

export interface RouteSpec extends Omit<Route, 'match' | 'handle' | 'malformed'> {
  malformed?: Route['malformed'];
  match?: Route['match'];
  steps?: readonly Step[];
  handle: (exchange: Exchange) => Result;
}

/** A matcher for `path`: a trailing slash is ignored, as everywhere on this site. */
function pathMatcher(path: string): Route['match'] {
  if (path.endsWith('*')) {
    const prefix = path.slice(0, -1);
    return (pathname) => (pathname.startsWith(prefix) ? NO_PARAMS : undefined);
  }
  const names: string[] = [];
  const source = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z]+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const pattern = new RegExp(`^${source}/?$`);
  if (names.length === 0) return (pathname) => (pattern.test(pathname) ? NO_PARAMS : undefined);
  return (pathname) => {
    const found = pattern.exec(pathname);
    if (!found) return undefined;
    return Object.fromEntries(names.map((name, i) => [name, found[i + 1] as string]));
  };
}

export function route(spec: RouteSpec): Route {
  const { steps = [], handle, match, ...rest } = spec;
  return { malformed: 'refused', ...rest, match: match ?? pathMatcher(spec.path), handle: steps.length === 0 ? handle : compose([...steps, handle]) };
}
