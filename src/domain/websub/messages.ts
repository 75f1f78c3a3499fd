/**
 * What the hub sends to a callback: the verification and denial GETs (the
 * callback's own query string is kept, ours appended) and the headers of a
 * notification POST.
 */
import { signatureHeader } from './signature.ts';

export interface VerificationParams {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  challenge: string;
  leaseSeconds: number;
}

function withParams(callback: string, params: Record<string, string>): string {
  const url = new URL(callback);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url.href;
}

/** The challenge GET. Unsubscribe carries `hub.lease_seconds=0`: the lease ends with it. */
export function verificationUrl(callback: string, { mode, topic, challenge, leaseSeconds }: VerificationParams): string {
  return withParams(callback, {
    'hub.mode': mode,
    'hub.topic': topic,
    'hub.challenge': challenge,
    'hub.lease_seconds': String(mode === 'subscribe' ? leaseSeconds : 0),
  });
}

/** Tells a callback that the hub dropped its subscription and why. */
export function denialUrl(callback: string, topic: string, reason: string): string {
  return withParams(callback, { 'hub.mode': 'denied', 'hub.topic': topic, 'hub.reason': reason });
}

export interface NotificationInput {
  hubUrl: string;
  topicUrl: string;
  contentType: string;
  body: Uint8Array;
  secret?: string | null;
}

export function notificationHeaders({ hubUrl, topicUrl, contentType, body, secret }: NotificationInput): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'Content-Length': String(body.byteLength),
    Link: `<${hubUrl}>; rel="hub", <${topicUrl}>; rel="self"`,
  };
  if (secret) headers['X-Hub-Signature'] = signatureHeader(secret, body);
  return headers;
}
