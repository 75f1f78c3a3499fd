/**
 * The hub's form (`application/x-www-form-urlencoded`): one schema validates it
 * and describes it in OpenAPI. Unknown parameters are ignored; every known one
 * that is wrong gets an issue naming it, what was wrong and what is allowed.
 */
import { z } from 'zod';
import type { QueryIssue } from '../schemas/errors.ts';
import { malformedQueryIssues } from '../catalog/percent-encoding.ts';
import { MAX_LEASE_SECONDS, MIN_LEASE_SECONDS } from './lease.ts';

const HUB_MODES = ['subscribe', 'unsubscribe', 'publish'] as const;
const MAX_CALLBACK_LENGTH = 2048;
const MAX_SECRET_BYTES = 199;
const FIELDS = ['hub.mode', 'hub.callback', 'hub.topic', 'hub.url', 'hub.lease_seconds', 'hub.secret'] as const;

export type HubRequest =
  | { mode: 'subscribe' | 'unsubscribe'; callback: URL; topic: string; leaseSeconds?: number; secret?: string }
  | { mode: 'publish'; topic: string };

export type HubFormResult = { ok: true; request: HubRequest } | { ok: false; issues: QueryIssue[] };

function callbackProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL such as https://example.com/websub/callback';
  }
  if (url.protocol === 'http:') return 'must use https: plain HTTP callbacks are refused';
  if (url.protocol !== 'https:') return `must be an https URL, not ${url.protocol}`;
  if (url.username || url.password) return 'must not carry a user name or password';
  return undefined;
}

/** The form's schema for a site whose topics are `topicUrls`. */
export function hubFormSchema(topicUrls: readonly string[]) {
  const topicList = topicUrls.join(', ');
  const topic = z
    .enum(topicUrls as [string, ...string[]], { error: `is not a topic of this hub; the topics are ${topicList}` })
    .meta({ description: 'One of the topic URLs.' });
  return z
    .object({
      'hub.mode': z.enum(HUB_MODES, {
        error: (issue) =>
          issue.input === undefined ? 'is required: subscribe, unsubscribe or publish' : 'must be subscribe, unsubscribe or publish',
      }).meta({ description: 'subscribe or unsubscribe (a callback and a topic), or publish (a topic in hub.url).' }),
      'hub.callback': z
        .string()
        .max(MAX_CALLBACK_LENGTH, { message: `must be at most ${MAX_CALLBACK_LENGTH} characters` })
        .superRefine((value, ctx) => {
          const problem = callbackProblem(value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .optional()
        .meta({ description: 'HTTPS URL of the subscriber; its own query string is kept. Required to subscribe or unsubscribe.' }),
      'hub.topic': topic.optional(),
      'hub.url': topic.optional().meta({ description: 'The changed topic (publish); `hub.topic` is accepted too.' }),
      'hub.lease_seconds': z
        .string()
        .regex(/^\d{1,10}$/, { message: `must be a whole number of seconds; the hub grants ${MIN_LEASE_SECONDS} to ${MAX_LEASE_SECONDS}` })
        .optional()
        .meta({ description: `Requested lease; clamped to ${MIN_LEASE_SECONDS}..${MAX_LEASE_SECONDS} seconds, default 864000 (10 days).` }),
      'hub.secret': z
        .string()
        .refine((value) => Buffer.byteLength(value, 'utf8') <= MAX_SECRET_BYTES, {
          message: `must be shorter than 200 bytes (at most ${MAX_SECRET_BYTES})`,
        })
        .optional()
        .meta({ description: 'Key for X-Hub-Signature (HMAC-SHA256 of each notification body); fewer than 200 bytes.' }),
    })
    .superRefine((form, ctx) => {
      const mode = form['hub.mode'];
      if (mode === 'subscribe' || mode === 'unsubscribe') {
        if (form['hub.callback'] === undefined) ctx.addIssue({ code: 'custom', path: ['hub.callback'], message: `is required to ${mode}` });
        if (form['hub.topic'] === undefined) {
          ctx.addIssue({ code: 'custom', path: ['hub.topic'], message: `is required to ${mode}; the topics are ${topicList}` });
        }
      } else if (mode === 'publish') {
        const [url, named] = [form['hub.url'], form['hub.topic']];
        if (url === undefined && named === undefined) {
          ctx.addIssue({ code: 'custom', path: ['hub.url'], message: `is required to publish (or hub.topic); the topics are ${topicList}` });
        } else if (url !== undefined && named !== undefined && url !== named) {
          ctx.addIssue({ code: 'custom', path: ['hub.url'], message: 'names another topic than hub.topic; send one of them' });
        }
      }
    });
}

export type HubFormSchema = ReturnType<typeof hubFormSchema>;

/** Parses a form body. Repeated parameters are refused rather than guessed at. */
export function parseHubForm(schema: HubFormSchema, body: string): HubFormResult {
  const params = new URLSearchParams(body);
  // URLSearchParams reads bytes that are no UTF-8 (or a stray %) as U+FFFD: a secret would sign with
  // other bytes than the subscriber's. A field of the hub's that does not decode is refused, naming it.
  const issues: QueryIssue[] = malformedQueryIssues(body).filter((issue) => (FIELDS as readonly string[]).includes(issue.path));
  const form: Record<string, string> = {};
  for (const field of FIELDS) {
    const values = params.getAll(field);
    if (values.length > 1) issues.push({ path: field, code: 'repeated_parameter', message: `${field} was given ${values.length} times; send it once` });
    // An empty value means "not given", as for the secret a form leaves blank.
    if (values[0]) form[field] = values[0];
  }
  const parsed = schema.safeParse(form);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.') || 'body';
      issues.push({ path, code: issue.code, message: `${path} ${issue.message}` });
    }
  }
  if (issues.length > 0 || !parsed.success) return { ok: false, issues };
  const data = parsed.data;
  if (data['hub.mode'] === 'publish') return { ok: true, request: { mode: 'publish', topic: (data['hub.url'] ?? data['hub.topic']) as string } };
  const callback = new URL(data['hub.callback'] as string);
  callback.hash = '';
  const leaseText = data['hub.lease_seconds'];
  return {
    ok: true,
    request: {
      mode: data['hub.mode'],
      callback,
      topic: data['hub.topic'] as string,
      ...(leaseText === undefined ? {} : { leaseSeconds: Number(leaseText) }),
      ...(data['hub.secret'] === undefined ? {} : { secret: data['hub.secret'] }),
    },
  };
}

export const hubAcceptedSchema = z
  .object({
    status: z.literal('accepted'),
    mode: z.enum(HUB_MODES),
    topic: z.string().meta({ description: 'The topic the request is about.' }),
    message: z.string().meta({ description: 'What happens next, for a person.' }),
  })
  .meta({ id: 'HubAccepted', description: 'The hub accepted the request; verification or distribution runs in the background.' });
export type HubAccepted = z.infer<typeof hubAcceptedSchema>;
