/**
 * `npm run publish` end to end, as the business runs it after a push: build,
 * serve, publish; add a review, rebuild into the same OUT_DIR, restart, publish;
 * subscribers receive the new bytes. Also: dry run, nothing to do, a failed ping
 * and its rerun, and a comparison with the live site.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.ts';
import { addReview, buildContent, copyFixture } from '../support/content-variant.ts';
import { rawRequest } from '../support/http.ts';
import { hubPost, startHubServer, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber, type TestCertificates } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

let certs: TestCertificates;
let content: string;
let outDir: string;
let hubDb: string;
let stateDir: string;
let server: RunningServer;
let subscriber: Subscriber;
const NAMES = { atom: '/feed.xml', jsonFeed: '/api/feed.json', reviews: '/reviews.json' } as const;

function publish(...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/publish.ts'), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, OUT_DIR: outDir, PUBLISH_STATE_DIR: stateDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
const hubArg = () => ['--hub', `${server.url}/api/websub/hub`];
const served = async (topicPath: string) => (await rawRequest(`${server.url}${topicPath}`, { headers: { 'Accept-Encoding': 'identity' } })).body;
const startServer = () => startHubServer(outDir, { hubDb, caFile: certs.caFile });

beforeAll(async () => {
  const dir = scratchDir('publish');
  certs = createTestCertificates(dir);
  hubDb = path.join(dir, 'hub.sqlite');
  stateDir = path.join(dir, 'published');
  content = copyFixture('small', 'publish-e2e');
  outDir = await buildContent(content, 'publish-e2e');
  subscriber = await startSubscriber(certs);
  server = await startServer();
  for (const [name, topic] of Object.entries(TOPICS)) {
    expect((await hubPost(server.url, { 'hub.mode': 'subscribe', 'hub.callback': subscriber.callback(name), 'hub.topic': topic })).status).toBe(202);
  }
  await subscriber.waitFor('three verifications', () => Object.keys(TOPICS).every((n) => subscriber.verifications(n).length === 1));
});
afterAll(async () => {
  await server?.stop();
  await subscriber?.close();
});

describe('npm run publish', () => {
  it('--dry-run says what would be published and pings and records nothing', async () => {
    const { code, output } = await publish('--dry-run', ...hubArg());
    expect(code).toBe(0);
    expect(output).toMatch(/Reviews: 4 added, 0 changed, 0 removed\./);
    expect(output).toContain('+ a-one: ');
    expect(output).toMatch(/Topics changed: 3 of 3/);
    expect(output).toContain('Dry run: no hub pinged, nothing recorded.');
    expect(existsSync(path.join(stateDir, 'reviews.json'))).toBe(false);
  });

  it('the first run pings the hub for every topic and records the snapshot; subscribers get the served bytes', async () => {
    const { code, output } = await publish(...hubArg());
    expect(output).toMatch(/3 topics published/);
    expect(code).toBe(0);
    await subscriber.waitFor('three notifications', () => Object.keys(TOPICS).every((n) => subscriber.acknowledged(n).length === 1));
    for (const [name, topicPath] of Object.entries(NAMES)) {
      expect(subscriber.acknowledged(name)[0]?.body.equals(await served(topicPath)), name).toBe(true);
      expect(readFileSync(path.join(stateDir, topicPath)).equals(await served(topicPath))).toBe(true);
    }
  });

  it('a second run with no change pings nothing', async () => {
    const { code, output } = await publish(...hubArg());
    expect(code).toBe(0);
    expect(output).toContain('Nothing changed since the last publish.');
    expect(output).not.toContain('Pinging');
  });

  it('after a new review and a rebuild: a failed ping exits non-zero and records nothing, a rerun finishes the job', async () => {
    const before = readFileSync(path.join(stateDir, 'reviews.json'));
    addReview(content, 'g-fresh', 'Fresh gutters before the storm', '2024-07-01');
    await buildContent(content, 'publish-e2e');
    await server.stop();
    server = await startServer();

    const failed = await publish('--hub', 'http://127.0.0.1:9/api/websub/hub');
    expect(failed.code).toBe(1);
    expect(failed.output).toContain('+ g-fresh: Fresh gutters before the storm');
    expect(failed.output.match(/FAILED/g)).toHaveLength(3);
    expect(failed.output).toMatch(/Run `npm run publish` again/);
    expect(readFileSync(path.join(stateDir, 'reviews.json')).equals(before)).toBe(true);

    const rerun = await publish(...hubArg());
    expect(rerun.code).toBe(0);
    expect(rerun.output).toMatch(/Reviews: 1 added, 0 changed, 0 removed\./);
    expect(rerun.output).toContain('+ g-fresh: Fresh gutters before the storm');
    await subscriber.waitFor('the new version', () => Object.keys(TOPICS).every((n) => subscriber.acknowledged(n).length === 2));
    for (const [name, topicPath] of Object.entries(NAMES)) {
      const bytes = await served(topicPath);
      expect(bytes.toString()).toContain('g-fresh');
      expect(subscriber.acknowledged(name)[1]?.body.equals(bytes), name).toBe(true);
    }
    expect((await publish(...hubArg())).output).toContain('Nothing changed since the last publish.');
  });

  it('--against compares with what a live site serves', async () => {
    const { code, output } = await publish('--against', server.url, '--dry-run');
    expect(code).toBe(0);
    expect(output).toContain(`compared with ${server.url}`);
    expect(output).toContain('Nothing changed since the last publish.');
  });

  it('refuses an unknown option with its usage', async () => {
    const { code, output } = await publish('--force');
    expect(code).toBe(2);
    expect(output).toContain('Usage: npm run publish');
  });
});
