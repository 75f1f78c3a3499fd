/**
 * Deploys under load, as an operator runs them: a server on OUT_DIR (outside the
 * project tree) serves while `npm run build` runs 20 times with new content (plus a
 * build that fails and one that is SIGKILLed), then a rollback and 50 quick switches.
 * Every answer of the load must be whole and consistent, every new review visible
 * within 2 s of its build finishing, the hub must push each changed topic to a real
 * HTTPS subscriber exactly once, and memory must not grow with the switches.
 */
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeBuilds, currentBuildId, switchToBuild } from '../../src/build/build-layout.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';
import { startLoad } from '../support/consistent-load.ts';
import { rawRequest } from '../support/http.ts';
import { hubPost, startHubServer, TOPICS } from '../support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Subscriber } from '../support/https-subscriber.ts';
import type { RunningServer } from '../support/server.ts';

const BUILDS = 20;
const scratch = mkdtempSync(path.join(tmpdir(), 'deploy-test-'));
const outDir = path.join(scratch, 'out');
const content = path.join(scratch, 'content');
let server: RunningServer;
let subscriber: Subscriber;
let firstBuild: string;

interface ScriptRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  /** performance.now() when the process exited. */
  endedAt: number;
}

function runScript(script: string, args: string[] = [], onStart?: (pid: number) => void, env: Record<string, string> = {}): Promise<ScriptRun> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, script), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, OUT_DIR: outDir, CONTENT_DIR: content, SITE_URL: TEST_SITE_URL, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onStart?.(child.pid as number);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, output, endedAt: performance.now() })));
}

const dateOf = (n: number) => `2025-01-${String(n).padStart(2, '0')}`;

function addReview(n: number, rating = 5, date = dateOf(n)): string {
  const id = `deploy-${String(n).padStart(2, '0')}`;
  writeFileSync(
    path.join(content, 'reviews', `${id}.md`),
    `---\nauthor: Reviewer ${n}\nrating: ${rating}\ndate: ${date}\nverified: true\nverification: invoice\ntitle: Visit ${n}\n---\nThe crew came back for visit ${n} and left the yard clean.\n`,
  );
  return id;
}

const servedId = async () => (JSON.parse((await rawRequest(`${server.url}/api/health`)).text) as { build: { id: string } }).build.id;
const identity = async (urlPath: string) => (await rawRequest(`${server.url}${urlPath}`, { headers: { 'Accept-Encoding': 'identity' } })).body;

/** Polls until both the dataset and incremental sync show the review; the milliseconds since `from`. */
async function visibleAfter(id: string, date: string, from: number): Promise<number> {
  for (;;) {
    const dataset = (await identity('/reviews.json')).toString();
    const since = (await identity(`/api/reviews/since/${date}`)).toString();
    if (dataset.includes(`"id":"${id}"`) && since.includes(`"id":"${id}"`)) return performance.now() - from;
    if (performance.now() - from > 10_000) throw new Error(`${id} not visible 10 s after its build`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Child processes of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Running, not gone and not a zombie waiting for whoever adopted it to reap it. */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const settledRssKiB = async (pid: number) => {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return rssKiB(pid);
};

beforeAll(async () => {
  cpSync(path.join(PROJECT_ROOT, 'test/fixtures/small'), content, { recursive: true });
  const first = await runScript('scripts/build.ts');
  expect(first.code, first.output).toBe(0);
  firstBuild = currentBuildId(outDir) as string;
  const dir = scratchDir('deploy');
  const certs = createTestCertificates(dir);
  subscriber = await startSubscriber(certs);
  server = await startHubServer(outDir, { hubDb: path.join(dir, 'hub.sqlite'), caFile: certs.caFile });
  for (const [name, topic] of Object.entries(TOPICS)) {
    const res = await hubPost(server.url, { 'hub.mode': 'subscribe', 'hub.callback': subscriber.callback(name), 'hub.topic': topic });
    expect(res.status).toBe(202);
    await subscriber.waitFor(`${name} verified`, () => subscriber.verifications(name).length === 1);
  }
  // What an operator runs once after the first deploy; from now on the hub follows the builds.
  for (const topic of Object.values(TOPICS)) expect((await hubPost(server.url, { 'hub.mode': 'publish', 'hub.url': topic })).status).toBe(202);
  for (const name of Object.keys(TOPICS)) await subscriber.waitFor(`${name} first delivery`, () => subscriber.acknowledged(name).length === 1);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await subscriber?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('deploys under load', () => {
  /** Each topic's bytes after every switch, in order, to compare with what the subscriber got. */
  const versions: Record<keyof typeof TOPICS, Buffer[]> = { atom: [], jsonFeed: [], reviews: [] };
  const topicPaths = { atom: '/feed.xml', jsonFeed: '/api/feed.json', reviews: '/reviews.json' } as const;
  const recordVersions = async () => {
    for (const [name, urlPath] of Object.entries(topicPaths) as [keyof typeof TOPICS, string][]) {
      const bytes = await identity(urlPath);
      if (!versions[name].at(-1)?.equals(bytes)) versions[name].push(bytes);
    }
  };

  it(`${BUILDS} builds (one by a second npm start), a failing one and a killed one switch with no failed or inconsistent answer`, async () => {
    await recordVersions();
    const load = startLoad(server.url, [
      '/reviews.json', '/feed.xml', '/api/feed.json', '/insights.json',
      '/api/reviews/search?min_rating=4&limit=5', '/api/reviews/since/2024-01-01',
    ], 4, 5);
    const latencies: number[] = [];
    const builtIds: string[] = [];
    let orphans: number[] = [];
    try {
      for (let n = 1; n <= BUILDS; n++) {
        if (n === 5) {
          // Bad content: refused before anything is written; the served build stays.
          const before = await servedId();
          const bad = addReview(99, 7, '2025-02-01');
          const failed = await runScript('scripts/build.ts');
          expect(failed.code).toBe(1);
          expect(failed.output).toContain(`reviews/${bad}.md › rating: must be a whole number from 1 to 5`);
          rmSync(path.join(content, 'reviews', `${bad}.md`));
          expect(await servedId()).toBe(before);
        }
        if (n === 10) {
          // Killed once Astro is at work: nothing switches, and Astro does not outlive it.
          const before = await servedId();
          const buildsBefore = readdirSync(path.join(outDir, 'builds'));
          let astroPids: number[] = [];
          addReview(98, 5, '2025-02-01');
          const killed = await runScript('scripts/build.ts', [], (pid) => {
            const poll = setInterval(() => {
              astroPids = childrenOf(pid);
              if (astroPids.length > 0 && readdirSync(path.join(outDir, 'builds')).length > buildsBefore.length) {
                clearInterval(poll);
                setTimeout(() => process.kill(pid, 'SIGKILL'), 300);
              }
            }, 50);
          });
          expect(killed.signal).toBe('SIGKILL');
          expect(astroPids.length).toBeGreaterThan(0);
          orphans = astroPids;
          expect(await servedId()).toBe(before);
          rmSync(path.join(content, 'reviews', 'deploy-98.md'));
        }
        const id = addReview(n);
        // Once, the deploy is a second `npm start` on the running server's port: it builds, then says the server switched.
        const secondStart = n === 15;
        const built = secondStart
          ? await runScript('scripts/start.ts', [], undefined, { HOST: '127.0.0.1', PORT: String(server.port) })
          : await runScript('scripts/build.ts');
        expect(built.code, built.output).toBe(0);
        if (secondStart) {
          expect(built.output).toContain(
            `A server of this service is already running at ${server.url}/ and now serves build ${currentBuildId(outDir)}, the current build: nothing else to do.`,
          );
        }
        // The killed build's Astro child stopped by itself or was stopped by this build before it began.
        expect(orphans.filter(isRunning)).toEqual([]);
        builtIds.push(currentBuildId(outDir) as string);
        latencies.push(await visibleAfter(id, dateOf(n), built.endedAt));
        expect(await servedId()).toBe(currentBuildId(outDir));
        await recordVersions();
      }
    } finally {
      const report = await load.stop();
      console.log(`deploy test: ${report.requests} requests during the builds, ${report.failures.length} failed or inconsistent`);
      expect(report.failures.slice(0, 10)).toEqual([]);
      expect(report.requests).toBeGreaterThan(BUILDS * 20);
    }
    console.log(`deploy test: new review visible after ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    expect(Math.max(...latencies)).toBeLessThan(2_000);
    // The killed build's leftovers went with the next build. Kept: the newest three, and
    // the first, whose server code (Astro's bundle) the running server executes.
    const kept = completeBuilds(outDir);
    expect(readdirSync(path.join(outDir, 'builds')).sort()).toEqual(kept);
    expect(kept).toEqual([firstBuild, ...builtIds.slice(-3)]);
  }, 600_000);

  it('npm run rollback switches back to the previous build within 2 s', async () => {
    const [previous, last] = completeBuilds(outDir).slice(-2);
    expect(currentBuildId(outDir)).toBe(last);
    const rolled = await runScript('scripts/rollback.ts');
    expect(rolled.code, rolled.output).toBe(0);
    expect(rolled.output).toContain(`current is now ${previous} (was ${last})`);
    for (const started = performance.now(); (await servedId()) !== previous; ) {
      expect(performance.now() - started).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await identity('/reviews.json')).toString()).not.toContain(`"id":"deploy-${BUILDS}"`);
    await recordVersions();
  });

  it('the hub pushed every changed topic to the subscriber exactly once per switch', async () => {
    for (const name of Object.keys(TOPICS) as (keyof typeof TOPICS)[]) {
      await subscriber.waitFor(`${name} deliveries`, () => subscriber.acknowledged(name).length >= versions[name].length, 10_000);
      // A moment more, in case anything would arrive twice.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const delivered = subscriber.posts(name).map((post) => post.body);
      expect(delivered.length, name).toBe(versions[name].length);
      delivered.forEach((body, i) => expect(body.equals(versions[name][i] as Buffer), `${name} delivery ${i}`).toBe(true));
    }
  });

  it('clients that leave early break neither later answers nor the switches after them', async () => {
    // A client gone early once closed the build's shared descriptor; its number went to the next
    // connection, and the old build's retirement closed it again under libuv: SIGABRT at the switch.
    // A request sent, then the client's side shut at once: the answer is cut short by the server.
    const leaveEarly = () =>
      new Promise<void>((resolve) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.end('GET /reviews.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
        socket.resume();
        socket.on('close', () => resolve());
        socket.on('error', () => undefined);
      });
    // Connections kept open across the switch, as a browser's or a CDN's are.
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const fetchWhole = () =>
      new Promise<{ status: number; length: number; declared: number }>((resolve) => {
        const req = get(`${server.url}/reviews.json`, { agent, headers: { 'Accept-Encoding': 'identity' } }, (res) => {
          let length = 0;
          res.on('data', (chunk: Buffer) => (length += chunk.length));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, length, declared: Number(res.headers['content-length']) }));
          res.on('error', () => resolve({ status: -1, length, declared: Number(res.headers['content-length']) }));
        });
        req.on('error', () => resolve({ status: -1, length: 0, declared: 0 }));
      });
    const builds = completeBuilds(outDir).slice(-2);
    try {
      for (let i = 0; i < 4; i++) {
        await Promise.all(Array.from({ length: 10 }, leaveEarly));
        const later = await Promise.all(Array.from({ length: 20 }, fetchWhole));
        expect(later.filter((res) => res.status !== 200 || res.length !== res.declared)).toEqual([]);
        const target = builds[i % 2] as string;
        switchToBuild(outDir, target);
        while ((await servedId()) !== target) await new Promise((resolve) => setTimeout(resolve, 20));
        // The old build is retired once its last response ends, and its collection runs a second later.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect({ exitCode: server.process.exitCode, signal: server.process.signalCode }).toEqual({ exitCode: null, signal: null });
      }
    } finally {
      agent.destroy();
    }
  }, 60_000);

  it('50 switches under load: no failed answer, resident memory within 15% of the first switch', async () => {
    const builds = completeBuilds(outDir);
    const load = startLoad(server.url, ['/reviews.json', '/feed.xml', '/api/reviews/search?limit=5', '/api/reviews/since/2024-01-01'], 4);
    let afterFirst = 0;
    try {
      // The load's own heap growth settles before the first figure.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      for (let i = 1; i <= 50; i++) {
        const target = builds[i % builds.length] as string;
        switchToBuild(outDir, target);
        while ((await servedId()) !== target) await new Promise((resolve) => setTimeout(resolve, 20));
        // Each figure is read once the full collection the server runs 1 s after a switch has run,
        // so that both compare settled heaps, not one caught mid-switch with two builds alive.
        if (i === 1) afterFirst = await settledRssKiB(server.process.pid as number);
      }
    } finally {
      const report = await load.stop();
      expect(report.failures.slice(0, 10)).toEqual([]);
    }
    const afterLast = await settledRssKiB(server.process.pid as number);
    console.log(`deploy test: server RSS ${afterFirst} KiB after the first switch, ${afterLast} KiB after the 50th`);
    expect(afterLast / afterFirst, `RSS ${afterFirst} KiB after the first switch, ${afterLast} KiB after the 50th`).toBeLessThan(1.15);
  }, 120_000);
});
