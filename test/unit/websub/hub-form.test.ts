import { describe, expect, it } from 'vitest';
import { hubFormSchema, parseHubForm } from '../../../src/domain/websub/hub-form.ts';
import { hubTopics } from '../../../src/domain/websub/topics.ts';

const SITE = 'https://reviews.example';
const schema = hubFormSchema(hubTopics(SITE).map((t) => t.url));
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const parse = (fields: Record<string, string>) => parseHubForm(schema, form(fields));
const issuesOf = (fields: Record<string, string>) => {
  const result = parse(fields);
  if (result.ok) throw new Error('expected issues');
  return result.issues;
};

describe('the hub form', () => {
  it('accepts a subscribe request with lease and secret, ignoring unknown parameters', () => {
    const result = parse({
      'hub.mode': 'subscribe',
      'hub.callback': 'https://sub.example/cb?id=1#frag',
      'hub.topic': `${SITE}/feed.xml`,
      'hub.lease_seconds': '7200',
      'hub.secret': 'k',
      'hub.verify': 'sync',
      other: 'x',
    });
    expect(result.ok).toBe(true);
    if (!result.ok || result.request.mode === 'publish') throw new Error('unexpected');
    expect(result.request.callback.href).toBe('https://sub.example/cb?id=1');
    expect(result.request).toMatchObject({ mode: 'subscribe', topic: `${SITE}/feed.xml`, leaseSeconds: 7200, secret: 'k' });
  });

  it('accepts the three topics and publish by hub.url or hub.topic', () => {
    for (const topic of ['/feed.xml', '/api/feed.json', '/reviews.json']) {
      expect(parse({ 'hub.mode': 'publish', 'hub.url': SITE + topic })).toEqual({ ok: true, request: { mode: 'publish', topic: SITE + topic } });
      expect(parse({ 'hub.mode': 'publish', 'hub.topic': SITE + topic }).ok).toBe(true);
    }
  });

  it('refuses a plain HTTP callback, naming the parameter', () => {
    const [issue] = issuesOf({ 'hub.mode': 'subscribe', 'hub.callback': 'http://sub.example/cb', 'hub.topic': `${SITE}/feed.xml` });
    expect(issue).toMatchObject({ path: 'hub.callback', message: expect.stringMatching(/hub\.callback must use https/) });
  });

  it.each([['not a url'], ['/relative/path'], ['ftp://sub.example/x'], ['https://user:pw@sub.example/cb'], [`https://sub.example/${'a'.repeat(2100)}`]])(
    'refuses the callback %s',
    (callback) => {
      const issues = issuesOf({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': `${SITE}/feed.xml` });
      expect(issues.map((i) => i.path)).toEqual(['hub.callback']);
    },
  );

  it('lists the three topics when the topic is unknown', () => {
    const [issue] = issuesOf({ 'hub.mode': 'subscribe', 'hub.callback': 'https://sub.example/cb', 'hub.topic': `${SITE}/insights.json` });
    expect(issue?.path).toBe('hub.topic');
    for (const topic of ['/feed.xml', '/api/feed.json', '/reviews.json']) expect(issue?.message).toContain(SITE + topic);
  });

  it('requires a known mode', () => {
    expect(issuesOf({ 'hub.callback': 'https://sub.example/cb' })[0]).toMatchObject({ path: 'hub.mode', message: expect.stringContaining('is required') });
    expect(issuesOf({ 'hub.mode': 'subscribed' })[0]).toMatchObject({ path: 'hub.mode', message: expect.stringContaining('subscribe, unsubscribe or publish') });
  });

  it('requires callback and topic to subscribe, and a topic to publish', () => {
    expect(issuesOf({ 'hub.mode': 'unsubscribe' }).map((i) => i.path)).toEqual(['hub.callback', 'hub.topic']);
    expect(issuesOf({ 'hub.mode': 'publish' }).map((i) => i.path)).toEqual(['hub.url']);
    expect(issuesOf({ 'hub.mode': 'publish', 'hub.url': `${SITE}/feed.xml`, 'hub.topic': `${SITE}/reviews.json` })[0]?.path).toBe('hub.url');
  });

  it('takes a secret of 199 bytes but not of 200 (counted in UTF-8 bytes)', () => {
    const base = { 'hub.mode': 'subscribe', 'hub.callback': 'https://sub.example/cb', 'hub.topic': `${SITE}/feed.xml` };
    expect(parse({ ...base, 'hub.secret': 'x'.repeat(199) }).ok).toBe(true);
    expect(issuesOf({ ...base, 'hub.secret': 'x'.repeat(200) })[0]?.path).toBe('hub.secret');
    expect(issuesOf({ ...base, 'hub.secret': 'é'.repeat(100) })[0]?.path).toBe('hub.secret');
  });

  it('refuses a lease that is not a whole number and a parameter given twice', () => {
    const base = { 'hub.mode': 'subscribe', 'hub.callback': 'https://sub.example/cb', 'hub.topic': `${SITE}/feed.xml` };
    expect(issuesOf({ ...base, 'hub.lease_seconds': '-5' })[0]?.path).toBe('hub.lease_seconds');
    expect(issuesOf({ ...base, 'hub.lease_seconds': '1.5' })[0]?.path).toBe('hub.lease_seconds');
    const twice = `${form(base)}&hub.topic=${encodeURIComponent(`${SITE}/reviews.json`)}`;
    const result = parseHubForm(schema, twice);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]).toMatchObject({ path: 'hub.topic', code: 'repeated_parameter' });
  });
});

describe('malformed percent-encoding in the form', () => {
  const base = `hub.mode=subscribe&hub.topic=${encodeURIComponent(`${SITE}/feed.xml`)}&hub.callback=${encodeURIComponent('https://sub.example/cb')}`;

  it('refuses a field whose value does not decode, naming it, instead of signing with U+FFFD for the bytes sent', () => {
    for (const raw of ['%FF%FE', '%zz', 'abc%', '%C0%AF', '%ED%A0%80']) {
      const result = parseHubForm(schema, `${base}&hub.secret=${raw}`);
      expect(result.ok, raw).toBe(false);
      if (result.ok) continue;
      expect(result.issues).toEqual([{ path: 'hub.secret', code: 'malformed_percent_encoding', message: expect.stringContaining(JSON.stringify(raw)) }]);
    }
    const callback = parseHubForm(schema, `hub.mode=subscribe&hub.topic=${encodeURIComponent(`${SITE}/feed.xml`)}&hub.callback=https://sub.example/%E0%A4`);
    expect(callback.ok).toBe(false);
    if (!callback.ok) expect(callback.issues.map((issue) => [issue.path, issue.code])).toEqual([['hub.callback', 'malformed_percent_encoding']]);
  });

  it('still ignores a parameter it does not know, even a malformed one, and takes well-formed escapes', () => {
    expect(parseHubForm(schema, `${base}&hub.verify=%FF&hub.secret=caf%C3%A9`).ok).toBe(true);
  });
});

