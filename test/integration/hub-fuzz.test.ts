/**
 * Random hub requests over real HTTP, 5,000 from a fixed seed, eight at a time
 * against one server: forms built from the hub's own fields with hostile values,
 * broken encodings, odd media types, oversized and random bodies. No 5xx, no hang,
 * every refusal the documented `{ error, message, issues? }` (a 400 with issues),
 * the hub still serving afterwards, peak resident memory bounded. Each request
 * comes from one of 240 loopback addresses, so that the per-client rate limit
 * (30 at once) leaves most of them to reach the form. Figures: docs/hostile-input.md.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectApiError, residentMemory, runConcurrently, seededRandom } from '../support/fuzz.ts';
import { TOPICS } from '../support/hub.ts';
import { rawRequest } from '../support/http.ts';
import { scratchDir } from '../support/https-subscriber.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const INPUTS = 5_000;
const CONCURRENCY = 8;
const MAX_PEAK_RSS_MIB = 512;
const CLIENTS = 240;

let server: RunningServer;
/** A loopback port nothing listens on: verifications the fuzz gets accepted fail at once (connection refused). */
let closedPort: number;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const dir = scratchDir('hub-fuzz');
  server = await startServer(inject('smallBuild'), {
    HUB_DB: `${dir}/hub.sqlite`,
    HUB_ALLOW_PRIVATE_CALLBACKS: '1',
    HUB_TIMEOUT_MS: '1000',
    HUB_RETRY_DELAYS_MS: '100,200',
  });
});
afterAll(() => server?.stop());

const random = seededRandom(20_261_125);

const FIELDS = ['hub.mode', 'hub.callback', 'hub.topic', 'hub.url', 'hub.lease_seconds', 'hub.secret', 'hub.verify', 'hub.Mode', 'hub.callback ', 'other', ''];
const MODES = ['subscribe', 'unsubscribe', 'publish', 'SUBSCRIBE', 'subscribe ', '', 'x'.repeat(300), 'publish\u0000'];
const TOPIC_VALUES = [...Object.values(TOPICS), `${TOPICS.atom}?x=1`, TOPICS.atom.replace('https', 'http'), `${TOPICS.atom}/`, '', 'feed.xml', '%', '\ud800'];
const STRINGS = ['', ' ', '0', '-1', '86400', '99999999999', '1e9', 'NaN', '\u0000', '\u202e', '🏠', 'é', '%zz', '%', '&', '=', '+', '\r\n', 'x'.repeat(250), 'y'.repeat(3000)];

/** Mostly a callback the hub accepts (on the closed port), else one hostile part swapped in. */
function callback(): string {
  const good = { scheme: 'https://', host: `127.0.0.1:${closedPort}`, path: random.pick(['/cb', '/cb?id=1', `/cb/${random.int(0, 1e6)}`]) };
  const part = random.int(0, 5);
  if (part === 0) good.scheme = random.pick(['http://', 'javascript:', 'file://', 'HTTPS://', '//', '']);
  if (part === 1) good.host = random.pick([`localhost:${closedPort}`, `[::1]:${closedPort}`, `127.1:${closedPort}`, `user:pw@127.0.0.1:${closedPort}`, '', '[::127.0.0.1]:1', '0x7f.1:1', '%00', '[fe80::1%25eth0]:1']);
  if (part === 2) good.path = random.pick(['/cb#frag', `/${'p'.repeat(random.int(0, 3000))}`, '/\u0007', '/%zz', '']);
  return `${good.scheme}${good.host}${good.path}`;
}

function fieldValue(name: string): string {
  if (name === 'hub.mode') return random.pick(MODES);
  if (name === 'hub.callback') return callback();
  if (name === 'hub.topic' || name === 'hub.url') return random.pick(TOPIC_VALUES);
  if (name === 'hub.secret') return random() < 0.5 ? 's'.repeat(random.int(0, 260)) : random.pick(STRINGS);
  return random.pick(STRINGS);
}

/** A form: mostly a plausible request with one or two fields gone wrong, sometimes noise. */
function formBody(): string {
  const topic = random() < 0.8 ? random.pick(Object.values(TOPICS)) : random.pick(TOPIC_VALUES);
  const pairs: [string, string][] = [['hub.mode', random.pick(['subscribe', 'subscribe', 'unsubscribe', 'publish'])], ['hub.callback', callback()], ['hub.topic', topic]];
  for (let i = random() < 0.5 ? 0 : random.int(1, 3); i > 0; i--) {
    const name = random.pick(FIELDS);
    pairs.push([name, fieldValue(name)]);
  }
  if (random() < 0.15) pairs.splice(random.int(0, pairs.length - 1), 1);
  const body = new URLSearchParams(pairs).toString();
  if (random() < 0.1) return body.replace(/%[0-9A-F]{2}/, random.pick(['%', '%z', '%E0%A4', '%C0%AF']));
  return body;
}

function randomRequest(): { headers: Record<string, string>; body: string | Buffer } {
  const kind = random();
  const type = random() < 0.9 ? 'application/x-www-form-urlencoded' : random.pick(['', 'text/plain', 'application/json', 'application/x-www-form-urlencoded; charset=latin1', 'multipart/form-data; boundary=x']);
  const headers: Record<string, string> = type ? { 'Content-Type': type } : {};
  if (kind < 0.05) return { headers, body: Buffer.from(Array.from({ length: random.int(0, 512) }, () => random.int(0, 255))) };
  if (kind < 0.08) return { headers, body: `hub.mode=subscribe&hub.secret=${'z'.repeat(17_000)}` };
  return { headers, body: formBody() };
}

describe('fuzzing the hub', () => {
  it(`${INPUTS} random hub requests: no 5xx, JSON errors with issues, the hub still serving`, async () => {
    const inputs = Array.from({ length: INPUTS }, randomRequest);
    const statuses = new Map<number, number>();
    const started = performance.now();
    await runConcurrently(inputs, CONCURRENCY, async ({ headers, body }, index) => {
      const res = await rawRequest(`${server.url}/api/websub/hub`, { method: 'POST', headers, body, localAddress: `127.0.0.${2 + (index % CLIENTS)}` });
      const context = `request ${index}: ${String(body).slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect([202, 400, 413, 415, 429], context).toContain(res.status);
      expect(res.headers['content-type'], context).toMatch(/^application\/json/);
      if (res.status !== 202) expectApiError(res.text, context, res.status === 400);
    });
    const seconds = (performance.now() - started) / 1000;
    const memory = residentMemory(server.process.pid as number);
    console.info(`hub fuzz: ${INPUTS} requests in ${seconds.toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}, server RSS peak ${memory?.peakMiB} MiB`);
    // Reached the hub operations, not only the checks in front of them.
    expect(statuses.get(202)).toBeGreaterThan(500);
    expect(statuses.get(400)).toBeGreaterThan(1000);
    const publish = await rawRequest(`${server.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': TOPICS.atom }).toString(),
      localAddress: '127.0.1.1',
    });
    expect(publish.status).toBe(202);
    expect((await rawRequest(`${server.url}/api/health`)).status).toBe(200);
    if (memory) expect(memory.peakMiB).toBeLessThan(MAX_PEAK_RSS_MIB);
  }, 240_000);
});
