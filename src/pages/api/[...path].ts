import type { APIRoute } from 'astro';
import { notFound } from '../../server/http/api-error.ts';

export const prerender = false;

/** Every unknown path under /api/ answers JSON, whatever the method. */
export const ALL: APIRoute = ({ url }) => notFound(url.pathname);
