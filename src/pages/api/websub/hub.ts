import type { APIRoute } from 'astro';
import { methodNotAllowed } from '../../../server/http/api-error.ts';
import { hubServices } from '../../../server/websub/runtime.ts';

export const prerender = false;

/** The WebSub hub: subscribe, unsubscribe and publish, form-encoded. */
export const POST: APIRoute = async ({ request, clientAddress }) => (await hubServices()).handle(request, clientAddress);

export const ALL: APIRoute = ({ request }) => methodNotAllowed(request.method, ['POST']);
