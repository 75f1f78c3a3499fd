/**
 * POST /api/websub/hub as a web-standard handler: rate limit per client, then
 * the media type, the body size and the form, then the hub operation. Every
 * refusal is the API's JSON error; an accepted request is a 202 at once.
 */
import { parseHubForm, type HubAccepted, type HubFormSchema } from '../../domain/websub/hub-form.ts';
import { clientKey } from '../../domain/websub/rate-limit.ts';
import { apiError } from '../http/api-error.ts';
import { ACCEPTED_REQUEST_CODINGS, contentCodingMessage, unsupportedContentCoding } from '../http/content-coding.ts';
import { HubRejection, type Hub } from './hub.ts';
import { HubStoreUnavailable, type HubStore } from './store/hub-store.ts';
import type { Clock } from './worker.ts';

const MAX_FORM_BYTES = 16 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';

export interface HubEndpointOptions {
  hub: Hub;
  schema: HubFormSchema;
  /** Keeps the per-client rate limit (shared by every instance on the store). */
  limiter: Pick<HubStore, 'takeRateToken'>;
  clock: Clock;
  /** Words for the 429 message, e.g. "30 at once, then 1 per second". */
  rateDescription: string;
}

/** The body as text, or undefined when it is larger than `maxBytes`. */
async function readCapped(request: Request, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function accepted(body: HubAccepted): Response {
  return new Response(`${JSON.stringify(body)}\n`, {
    status: 202,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' },
  });
}

export function createHubEndpoint(options: HubEndpointOptions) {
  /** A store that cannot be used (file removed, database down) is a JSON 503, never an empty 500. */
  return async function handleHubRequest(request: Request, clientAddress: string | undefined): Promise<Response> {
    try {
      return await handle(options, request, clientAddress);
    } catch (error) {
      const message = error instanceof HubStoreUnavailable ? error.message : `The WebSub hub cannot reach its store: ${(error as Error).message}`;
      if (!(error instanceof HubStoreUnavailable)) console.error(`[hub] ${message}`);
      return apiError(503, 'hub_unavailable', message, { headers: { 'Retry-After': '60' } });
    }
  };
}

async function handle(
  { hub, schema, limiter, clock, rateDescription }: HubEndpointOptions,
  request: Request,
  clientAddress: string | undefined,
): Promise<Response> {
  {
    const client = clientKey(clientAddress);
    const decision = await limiter.takeRateToken(client, clock.now());
    if (!decision.allowed) {
      return apiError(429, 'rate_limited', `Too many hub requests from your address (${rateDescription}); retry in ${decision.retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
    const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== FORM_TYPE) {
      return apiError(415, 'unsupported_media_type', `The hub takes ${FORM_TYPE} bodies, not ${type || 'a body without Content-Type'}.`, {
        headers: { 'Accept-Post': FORM_TYPE },
      });
    }
    const coding = unsupportedContentCoding(request.headers.get('content-encoding'));
    if (coding !== undefined) {
      return apiError(415, 'unsupported_media_type', contentCodingMessage(coding, 'The hub form'), {
        headers: { 'Accept-Encoding': ACCEPTED_REQUEST_CODINGS, 'Accept-Post': FORM_TYPE },
      });
    }
    const body = await readCapped(request, MAX_FORM_BYTES);
    if (body === undefined) return apiError(413, 'payload_too_large', `The form may be at most ${MAX_FORM_BYTES} bytes.`);
    const form = parseHubForm(schema, body);
    if (!form.ok) {
      const message = `The hub request is invalid: ${form.issues.map((issue) => issue.message).join('; ')}.`;
      return apiError(400, 'invalid_request', message, { issues: form.issues });
    }

    const { request: hubRequest } = form;
    try {
      if (hubRequest.mode === 'publish') {
        const { changed } = await hub.publish(hubRequest.topic);
        const message = changed
          ? 'The topic changed; its subscribers are being sent the new content.'
          : 'The topic is unchanged since it was last distributed; nothing is sent.';
        return accepted({ status: 'accepted', mode: 'publish', topic: hubRequest.topic, message });
      }
      await hub.requestIntent(hubRequest, client);
      const message =
        hubRequest.mode === 'subscribe'
          ? 'The hub will now send a GET with hub.challenge to the callback; the subscription is active once the callback answers 2xx with exactly that value.'
          : 'The hub will now confirm with a GET (hub.mode=unsubscribe) to the callback; the subscription ends once the callback echoes hub.challenge.';
      return accepted({ status: 'accepted', mode: hubRequest.mode, topic: hubRequest.topic, message });
    } catch (error) {
      if (error instanceof HubRejection) {
        const issues = error.field ? [{ path: error.field, code: error.error, message: error.message }] : undefined;
        return apiError(error.status, error.error, error.message, { headers: error.headers, issues });
      }
      throw error;
    }
  }
}
