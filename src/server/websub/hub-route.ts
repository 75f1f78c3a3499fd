/**
 * What POST /api/websub/hub does, behind its entry in the server's table: every refusal
 * is the API's JSON error; an accepted request is a 202 at once, and the hub works on it after.
 */
import { parseHubForm, type HubAccepted, type HubFormSchema } from '../../domain/websub/hub-form.ts';
import { clientKey } from '../../domain/websub/rate-limit.ts';
import type { Answer } from '../http/answer.ts';
import { apiErrorAnswer } from '../http/api-error.ts';
import type { ClientOf } from '../http/client-address.ts';
import { compose, type Route, type Step } from '../http/pipeline.ts';
import { ACCEPTED_REQUEST_CODINGS, contentCodingMessage, identityCoding } from '../http/steps/content-coding.ts';
import { requestBody } from '../http/steps/request-body.ts';
import { HubRejection, type Hub } from './hub.ts';
import { HubStoreUnavailable, type HubStore } from './store/hub-store.ts';
import type { Clock } from './worker.ts';

const MAX_FORM_BYTES = 16 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';

export interface HubRouteOptions {
  hub: Hub;
  schema: HubFormSchema;
  /** Keeps the per-client rate limit (shared by every instance on the store). */
  limiter: Pick<HubStore, 'takeRateToken'>;
  clock: Clock;
  /** Who sent a request (the connection, or the client a trusted proxy names): the unit of the limits. */
  clientOf: ClientOf;
  /** Words for the 429 message, e.g. "30 at once, then 1 per second". */
  rateDescription: string;
}

function accepted(body: HubAccepted): Answer {
  return {
    status: 202,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' },
    body: `${JSON.stringify(body)}\n`,
  };
}

/** A store that cannot be used (file removed, database down) is a JSON 503, never an empty 500. */
const storeFaults: Step = async (_exchange, next) => {
  try {
    return await next();
  } catch (error) {
    const message = error instanceof HubStoreUnavailable ? error.message : `The WebSub hub cannot reach its store: ${(error as Error).message}`;
    if (!(error instanceof HubStoreUnavailable)) console.error(`[hub] ${message}`);
    return apiErrorAnswer(503, 'hub_unavailable', message, { headers: { 'Retry-After': '60' } });
  }
};

/** The rate limit per client comes first, so that a flood of bad requests is limited too. */
function rateLimit({ limiter, clock, rateDescription, clientOf }: HubRouteOptions): Step {
  return async function limitRate({ req }, next) {
    const decision = await limiter.takeRateToken(clientKey(clientOf(req)), clock.now());
    if (decision.allowed) return next();
    return apiErrorAnswer(429, 'rate_limited', `Too many hub requests from your address (${rateDescription}); retry in ${decision.retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    });
  };
}

const formType: Step = ({ req }, next) => {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === FORM_TYPE) return next();
  return apiErrorAnswer(415, 'unsupported_media_type', `The hub takes ${FORM_TYPE} bodies, not ${type || 'a body without Content-Type'}.`, {
    headers: { 'Accept-Post': FORM_TYPE },
  });
};

async function answerHubRequest({ hub, schema }: HubRouteOptions, body: string, client: string): Promise<Answer> {
  const form = parseHubForm(schema, body);
  if (!form.ok) {
    const message = `The hub request is invalid: ${form.issues.map((issue) => issue.message).join('; ')}.`;
    return apiErrorAnswer(400, 'invalid_request', message, { issues: form.issues });
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
      return apiErrorAnswer(error.status, error.error, error.message, { headers: error.headers, issues });
    }
    throw error;
  }
}

/**
 * POST /api/websub/hub, as the table's entry (src/server/app/routes.ts) runs it: the
 * rate limit, the media type, the coding and size of the form, then the operation.
 */
export function hubRequestHandler(options: HubRouteOptions): Route['handle'] {
  return compose([
    storeFaults,
    rateLimit(options),
    formType,
    identityCoding((coding) =>
      apiErrorAnswer(415, 'unsupported_media_type', contentCodingMessage(coding, 'The hub form'), {
        headers: { 'Accept-Encoding': ACCEPTED_REQUEST_CODINGS, 'Accept-Post': FORM_TYPE },
      }),
    ),
    requestBody(MAX_FORM_BYTES, () => apiErrorAnswer(413, 'payload_too_large', `The form may be at most ${MAX_FORM_BYTES} bytes.`)),
    ({ req, body }) => answerHubRequest(options, body ?? '', clientKey(options.clientOf(req))),
  ]);
}
