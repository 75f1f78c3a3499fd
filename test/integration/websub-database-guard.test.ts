/**
 * The hub guards its SQLite file: a corrupt file or a missing one where a hub
 * database existed stops the server at start with a message naming the file
 * and the remedy; a file removed or replaced while the server runs turns the
 * hub (and only the hub) into JSON 503s, health names the problem, the log says
 * it once. `npm run hub:backup` copies the live database, and the copy restores.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { markerFile } from '../../src/server/websub/store/sqlite-database.ts';
import { PROJECT_ROOT } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { hubPost, readHubState, startHubServer, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber, type TestCertificates } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

let dir: string;
let certs: TestCertificates;
let subscriber: Subscriber;
const running: RunningServer[] = [];

const start = async (hubDb: string) => {
  const server = await startHubServer(inject('smallBuild'), { hubDb, caFile: certs.caFile });
  running.push(server);
  return server;
};
const startFailure = (hubDb: string) => start(hubDb).then(() => 'started', (error: Error) => error.message);
const subscriptionCount = (hubDb: string) => {
  const state = readHubState(hubDb);
  return state.store.subscriptions().then((rows) => (state.close(), rows.length));
};

async function subscribeTwo(server: RunningServer, hubDb: string, prefix: string): Promise<void> {
  for (const topic of [TOPICS.atom, TOPICS.reviews]) {
    const res = await hubPost(server.url, { 'hub.mode': 'subscribe', 'hub.callback': subscriber.callback(`${prefix}-${topic.length}`), 'hub.topic': topic });
    expect(res.status).toBe(202);
  }
  await subscriber.waitFor('two subscriptions', async () => (await subscriptionCount(hubDb)) === 2);
}

beforeAll(async () => {
  dir = scratchDir('database-guard');
  certs = createTestCertificates(dir);
  subscriber = await startSubscriber(certs);
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  await subscriber?.close();
});

describe('at start', () => {
  it('refuses a corrupt HUB_DB, naming the file and what to do', async () => {
    const hubDb = path.join(dir, 'corrupt.sqlite');
    writeFileSync(hubDb, Buffer.alloc(8192, 'not a database '));
    const message = await startFailure(hubDb);
    expect(message).toContain(`HUB_DB ${hubDb} is corrupt or unreadable`);
    expect(message).toMatch(/Restore a backup .* or move the file aside/);
  });

  it('refuses to start empty where a hub database existed before', async () => {
    const hubDb = path.join(dir, 'vanished.sqlite');
    const server = await start(hubDb);
    await subscribeTwo(server, hubDb, 'vanished');
    await server.stop();
    rmSync(hubDb);
    const message = await startFailure(hubDb);
    expect(message).toContain(`HUB_DB ${hubDb} is missing or empty, but a hub database was created there`);
    expect(message).toContain(`delete ${markerFile(hubDb)} to start with an empty hub`);
    expect(existsSync(hubDb)).toBe(false);
  });
});

describe('while running', () => {
  it.each(['removed', 'replaced'] as const)('a HUB_DB %s under the server: hub 503, health 503, the rest keeps working, one log line', async (fault) => {
    const hubDb = path.join(dir, `${fault}.sqlite`);
    const server = await start(hubDb);
    await subscribeTwo(server, hubDb, fault);
    if (fault === 'removed') rmSync(hubDb);
    else {
      copyFileSync(hubDb, `${hubDb}.other`);
      renameSync(`${hubDb}.other`, hubDb);
    }
    for (let i = 0; i < 3; i++) {
      const res = await hubPost(server.url, { 'hub.mode': 'publish', 'hub.url': TOPICS.atom });
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.json).toMatchObject({ error: 'hub_unavailable', message: expect.stringContaining(`HUB_DB ${hubDb} was ${fault}`) });
    }
    const health = await rawRequest(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text).message).toContain(`HUB_DB ${hubDb} was ${fault}`);
    expect((await rawRequest(`${server.url}/reviews.json`)).status).toBe(200);
    expect((await rawRequest(`${server.url}/api/reviews/search?rating=5`)).status).toBe(200);
    const mcp = await rawRequest(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(mcp.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.output().split('HUB_DB problem').length - 1).toBe(1);
  });
});

describe('npm run hub:backup', () => {
  it('copies the live database consistently; the copy restores every subscription', async () => {
    const hubDb = path.join(dir, 'live.sqlite');
    const server = await start(hubDb);
    await subscribeTwo(server, hubDb, 'backed-up');
    const backupFile = path.join(dir, 'backups', 'hub-backup.sqlite');
    const output = execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/hub-backup.ts'), backupFile], {
      cwd: PROJECT_ROOT, env: { ...process.env, HUB_DB: hubDb }, encoding: 'utf8',
    });
    expect(output).toContain(`Backed up ${hubDb} to ${backupFile}: 2 subscriptions`);
    // One file, readable by its owner only: it holds the subscribers' secrets.
    expect(readdirSync(path.dirname(backupFile))).toEqual(['hub-backup.sqlite']);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    // A second backup to the same name is refused rather than overwriting.
    expect(() => execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/hub-backup.ts'), backupFile], {
      cwd: PROJECT_ROOT, env: { ...process.env, HUB_DB: hubDb }, stdio: 'pipe',
    })).toThrow(/exists already/);

    // Restore as docs/websub.md says: stop, put the copy in place (without the old WAL files), start.
    await server.stop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${hubDb}${suffix}`, { force: true });
    copyFileSync(backupFile, hubDb);
    const restored = await start(hubDb);
    expect((await rawRequest(`${restored.url}/api/health`)).status).toBe(200);
    expect(await subscriptionCount(hubDb)).toBe(2);
  });
});
