import type { APIRoute } from 'astro';
import { apiError, methodNotAllowed } from '../../../server/http/api-error.ts';
import { hubServices } from '../../../server/websub/runtime.ts';

export const prerender = false;

/** The WebSub hub: subscribe, unsubscribe and publish, form-encoded. */
export const POST: APIRoute = async ({ request, clientAddress }) => {
  let services;
  try {
    services = await hubServices();
  } catch (error) {
    return apiError(503, 'hub_unavailable', `The WebSub hub could not start: ${(error as Error).message}`);
  }
  return services.handle(request, clientAddress);
};

export const ALL: APIRoute = ({ request }) => methodNotAllowed(request.method, ['POST']);
