/**
 * CORS preflight for the public read API: a browser sends one before a GET that
 * carries If-None-Match, say. Everything is public and uncredentialed, so any
 * origin may ask. A route that answers every method itself (MCP, which checks
 * origins) answers its own.
 */
import type { Step } from '../pipeline.ts';

export const preflight: Step = ({ req, route }, next) => {
  if (req.method !== 'OPTIONS' || route?.preflight === 'own') return next();
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'If-None-Match, If-Modified-Since',
      'Access-Control-Max-Age': '86400',
      'Cache-Control': 'public, max-age=86400',
      Vary: 'Access-Control-Request-Headers',
    },
  };
};
