/** OpenAPI for the WebSub hub and the health check, from the hub's own form schema. */
import { hubFormSchema } from '../websub/hub-form.ts';
import { DEFAULT_LEASE_SECONDS, MAX_LEASE_SECONDS, MIN_LEASE_SECONDS } from '../websub/lease.ts';
import { hubTopics } from '../websub/topics.ts';
import { inlineSchema, ref } from './components.ts';
import { errorResponse, type PathItems } from './shared.ts';

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } };

const description = [
  'A W3C WebSub hub for the three topics (the Atom feed, the JSON Feed and the reviews dataset).',
  '`hub.mode=subscribe` or `unsubscribe`: the hub answers 202 at once, then verifies with a GET to the callback',
  '(its own query string kept) carrying `hub.mode`, `hub.topic`, a random `hub.challenge` and `hub.lease_seconds`;',
  'the callback must answer 2xx with exactly the challenge as its body. A failed verification changes nothing.',
  `Leases: default ${DEFAULT_LEASE_SECONDS} s, requests clamped to ${MIN_LEASE_SECONDS}..${MAX_LEASE_SECONDS} s; re-subscribe to renew.`,
  '`hub.mode=publish` with `hub.url`: the hub compares the topic as it serves it with what it last distributed and, when it changed,',
  'POSTs the full content to every subscriber (the topic\'s Content-Type, `Link` with rel="hub" and rel="self",',
  '`X-Hub-Signature: sha256=…` when a secret was given). A non-2xx answer, a redirect, a timeout or a network error is a failed attempt;',
  'after 3 consecutive failures the subscription ends and the callback gets a GET with `hub.mode=denied`. 410 Gone ends it at once.',
  'Callbacks must be HTTPS on public addresses. Each client may send 30 requests at once, then 1 per second.',
].join(' ');

export function hubPaths(siteUrl: string): PathItems {
  const topics = hubTopics(siteUrl).map((topic) => topic.url);
  return {
    '/api/websub/hub': {
      post: {
        operationId: 'websubHub',
        summary: 'Subscribe to, unsubscribe from or publish a topic (WebSub)',
        description,
        tags: ['websub'],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: inlineSchema(hubFormSchema(topics), 'input') } },
        },
        responses: {
          '202': {
            description: 'Accepted; verification or distribution runs in the background.',
            content: { 'application/json': { schema: ref('HubAccepted') } },
          },
          '400': errorResponse('A parameter is missing or wrong (e.g. a plain-HTTP or private callback, an unknown topic); `issues` names each.'),
          '405': errorResponse('Only POST is allowed.'),
          '413': errorResponse('The form is larger than 16 KiB.'),
          '415': errorResponse('The body is not application/x-www-form-urlencoded, or it carries a Content-Encoding other than identity (send the form uncompressed).'),
          '429': { ...errorResponse('Too many requests from this client, or too many subscriptions for one callback host.'), headers: retryAfter },
          '503': { ...errorResponse('The hub is full or busy, or the topic is missing from the build.'), headers: retryAfter },
        },
      },
    },
    '/api/health': {
      get: {
        operationId: 'getHealth',
        summary: 'Liveness of the service',
        tags: ['service'],
        responses: {
          '200': {
            description: 'The service and its hub are running; `build` names the build served.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    status: { const: 'ok' },
                    build: {
                      type: 'object',
                      description: 'The served build: its id (OUT_DIR/builds/<id>), since when it is served, its newest content date, and whether its code differs from the running code (a restart runs it).',
                      properties: {
                        id: { type: 'string' },
                        servedSince: { type: 'string', format: 'date-time' },
                        updated: { type: ['string', 'null'] },
                        restartNeeded: { type: 'boolean' },
                      },
                      required: ['id', 'servedSince', 'updated', 'restartNeeded'],
                    },
                  },
                  required: ['status', 'build'],
                },
              },
            },
          },
          '405': errorResponse('Only GET and HEAD are allowed.'),
          '503': errorResponse('The hub could not start (e.g. HUB_DB cannot be opened).'),
        },
      },
    },
  };
}
