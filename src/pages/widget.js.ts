import type { APIRoute } from 'astro';
import { widgetScript } from '../build/widget-script.ts';
import source from '../widget/reviews-widget.ts?raw';

export const prerender = true;

export const GET: APIRoute = () => new Response(widgetScript(source), { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
