import type { APIRoute } from 'astro';
import { apiError, methodNotAllowed } from '../../server/http/api-error.ts';
import { buildHealth } from '../../server/runtime/build-output.ts';
import { hubServices } from '../../server/websub/runtime.ts';

export const prerender = false;

/**
 * Liveness, the build served (npm start asks when its port is taken), and the start
 * of this process's runtime services: the server calls it once right after
 * listening, so the hub's worker resumes pending work then.
 */
export const GET: APIRoute = async () => {
  let problem: string | undefined;
  try {
    problem = await (await hubServices()).problem();
  } catch (error) {
    console.error(`The hub could not start: ${(error as Error).message}`);
    return apiError(503, 'unavailable', `The WebSub hub could not start: ${(error as Error).message}`);
  }
  if (problem) return apiError(503, 'hub_unavailable', `The WebSub hub cannot use its database: ${problem}`);
  return new Response(`${JSON.stringify({ status: 'ok', build: buildHealth() })}\n`, { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
};

/** As GET: a monitor may ask with HEAD (RFC 9110 9.3.2); Node sends no body to a HEAD. */
export const HEAD: APIRoute = GET;

export const ALL: APIRoute = ({ request }) => methodNotAllowed(request.method, ['GET', 'HEAD']);
