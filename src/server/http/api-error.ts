import type { QueryIssue } from '../../domain/schemas/errors.ts';
import type { Answer } from './answer.ts';

export interface ApiErrorOptions {
  issues?: QueryIssue[];
  headers?: Record<string, string>;
}

/** The one way the JSON API says no: `{ error, message, issues? }` with the right status. */
export function apiErrorAnswer(status: number, error: string, message: string, options: ApiErrorOptions = {}): Answer {
  const body = options.issues ? { error, message, issues: options.issues } : { error, message };
  return {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': '*',
      ...options.headers,
    },
    body: `${JSON.stringify(body)}\n`,
  };
}

export function methodNotAllowedAnswer(method: string, allow: readonly string[]): Answer {
  return apiErrorAnswer(405, 'method_not_allowed', `${method} is not allowed here; use ${allow.join(' or ')}.`, {
    headers: { Allow: allow.join(', ') },
  });
}

export function notFoundAnswer(pathname: string): Answer {
  return apiErrorAnswer(404, 'not_found', `There is nothing at ${pathname}. The API is described at /.well-known/openapi.json.`);
}
