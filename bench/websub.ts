/**
 * WebSub fan-out: 1,000 subscriptions on local HTTPS callbacks, one publish of
 * /reviews.json of the sample content. Prints the time from the publish ping to
 * the last delivery, deliveries per second and the server's peak memory; then
 * the same with 10% of the callbacks failing (5% answer 500, 5% never answer);
 * then on PostgreSQL with 1, 2 and 4 instances (the ping goes to the first; the
 * others wake by LISTEN/NOTIFY), beside SQLite with one.
 *
 * Standalone: `./node_modules/.bin/node bench/websub.ts [scenario prefix…]` (or through bench/run.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite, isBuildCurrent } from '../src/build/build-site.ts';
import type { HubStore } from '../src/server/websub/store/hub-store.ts';
import { openPostgresStore } from '../src/server/websub/store/postgres-store.ts';
import { openHubDatabase } from '../src/server/websub/store/sqlite-database.ts';
import { createSqliteStore } from '../src/server/websub/store/sqlite-store.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../test/support/build.ts';
import { hubPost, TEST_RATE } from '../test/support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Answer, type Subscriber } from '../test/support/https-subscriber.ts';
import { startPostgres, type TestPostgres } from '../test/support/postgres.ts';
import { startServer, type RunningServer } from '../test/support/server.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const TOPIC = `${TEST_SITE_URL}/reviews.json`;
/** The server's default; the failing scenario uses 2 s so that hanging callbacks are dropped within the run. */
const DEFAULT_TIMEOUT_MS = 10_000;
const FAILING_TIMEOUT_MS = 2000;

async function buildSample(): Promise<string> {
  const contentDir = path.join(PROJECT_ROOT, 'content');
  const outDir = path.join(PROJECT_ROOT, 'tmp/bench-builds/websub');
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl: TEST_SITE_URL, outDir, stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) await buildSite(build);
  return outDir;
}

/** Peak and current resident memory of a process, in MiB (Linux). */
function memoryOf(pid: number): { peakMiB: number; rssMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakMiB: Math.round(kib('VmHWM') / 102.4) / 10, rssMiB: Math.round(kib('VmRSS') / 102.4) / 10 };
}

interface Scenario {
  name: string;
  /** The answer plan of the i-th callback. */
  planOf: (i: number) => Answer[];
  /** Instances on one PostgreSQL database; absent: one instance on SQLite. */
  postgresInstances?: number;
  /** HUB_PER_HOST_CONCURRENCY (every callback here is on one host); default: the server's default. */
  perHost?: number;
  timeoutMs?: number;
}

interface Backend {
  env: Record<string, string>;
  store: HubStore;
  close(): Promise<void>;
}

async function openBackend(scenario: Scenario, cluster: () => Promise<TestPostgres>): Promise<Backend> {
  const dir = scratchDir(`bench-${scenario.name}`);
  if (!scenario.postgresInstances) {
    const hubDb = path.join(dir, 'hub.sqlite');
    const db = openHubDatabase(hubDb);
    return { env: { HUB_DB: hubDb }, store: createSqliteStore(db, TEST_RATE, { file: hubDb }), close: async () => db.close() };
  }
  const url = await (await cluster()).createSchema(scenario.name.replaceAll('-', '_'));
  const store = await openPostgresStore(url, TEST_RATE);
  return { env: { DATABASE_URL: url, HUB_DB: path.join(dir, 'unused.sqlite') }, store, close: () => store.close() };
}

async function runScenario(outDir: string, subscriber: Subscriber, caFile: string, scenario: Scenario, cluster: () => Promise<TestPostgres>) {
  const backend = await openBackend(scenario, cluster);
  // Subscriptions are seeded straight into the store: the rate limit would (rightly) stop 1,000 subscribe requests from one client.
  const healthy: string[] = [];
  const failing: string[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const name = `${scenario.name}-${i}`;
    const plan = scenario.planOf(i);
    const callback = subscriber.callback(name, { deliver: plan });
    (plan[0] === 200 ? healthy : failing).push(name);
    await backend.store.activateSubscription(
      { topic: TOPIC, callback, callbackHost: 'localhost', callbackAddress: '127.0.0.1', secret: i % 2 ? `secret-${i}` : null, leaseSeconds: 864_000 },
      Date.now(),
    );
  }
  const env = {
    ...backend.env, NODE_EXTRA_CA_CERTS: caFile, HUB_ALLOW_PRIVATE_CALLBACKS: '1', HUB_RETRY_DELAYS_MS: '100,200',
    HUB_TIMEOUT_MS: String(scenario.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    ...(scenario.perHost ? { HUB_PER_HOST_CONCURRENCY: String(scenario.perHost) } : {}),
  };
  const servers = await Promise.all(Array.from({ length: scenario.postgresInstances ?? 1 }, () => startServer(outDir, env)));
  try {
    const pids = servers.map((server) => server.process.pid as number);
    const before = pids.map(memoryOf);
    const started = performance.now();
    const ping = await hubPost((servers[0] as RunningServer).url, { 'hub.mode': 'publish', 'hub.url': TOPIC });
    if (ping.status !== 202) throw new Error(`publish ping answered ${ping.status}: ${ping.text}`);
    try {
      await subscriber.waitFor('every healthy delivery', () => healthy.every((n) => subscriber.acknowledgedCount(n) >= 1), 300_000);
    } catch (error) {
      const missing = healthy.filter((n) => subscriber.acknowledgedCount(n) === 0);
      console.error(`${missing.length} healthy subscribers got nothing, e.g. ${missing.slice(0, 3).join(', ')}; the servers said last:`);
      for (const server of servers) console.error(server.output().split('\n').slice(-8).join('\n'));
      throw error;
    }
    const lastHealthy = performance.now() - started;
    await subscriber.waitFor('every failing callback dropped', () => failing.every((n) => subscriber.denialCount(n) === 1), 300_000);
    const settled = performance.now() - started;
    const bytes = subscriber.acknowledged(healthy[0] as string)[0]?.body.length ?? 0;
    const peaks = pids.map((pid) => memoryOf(pid).peakMiB);
    return {
      scenario: scenario.name,
      store: scenario.postgresInstances ? `PostgreSQL x${scenario.postgresInstances}` : 'SQLite x1',
      per_host: scenario.perHost ?? 8,
      subscriptions: SUBSCRIBERS,
      failing: failing.length,
      payload_kib: Math.round(bytes / 102.4) / 10,
      ms_to_last_healthy_delivery: Math.round(lastHealthy),
      healthy_deliveries_per_s: Math.round(healthy.length / (lastHealthy / 1000)),
      // An attempt that timed out on a loaded machine after the subscriber had its bytes is repeated (at least once).
      repeated: healthy.filter((n) => subscriber.acknowledgedCount(n) > 1).length,
      ms_until_failing_dropped: failing.length ? Math.round(settled) : 0,
      rss_before_mib_each: Math.max(...before.map((m) => m.rssMiB)),
      peak_rss_mib_each: Math.max(...peaks),
      peak_rss_mib_total: Math.round(peaks.reduce((a, b) => a + b, 0) * 10) / 10,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await backend.close();
  }
}

const SCENARIOS: Scenario[] = [
  { name: 'sqlite-all-healthy', planOf: () => [200] },
  {
    name: 'sqlite-ten-percent-failing',
    planOf: (i) => (i % 20 === 0 ? [500] : i % 20 === 10 ? ['hang'] : [200]),
    timeoutMs: FAILING_TIMEOUT_MS,
  },
  // One host takes every callback here: lift the per-host cap to measure what more instances give.
  { name: 'sqlite-per-host-1000', planOf: () => [200], perHost: 1000 },
  { name: 'postgres-1', planOf: () => [200], perHost: 1000, postgresInstances: 1 },
  { name: 'postgres-2', planOf: () => [200], perHost: 1000, postgresInstances: 2 },
  { name: 'postgres-4', planOf: () => [200], perHost: 1000, postgresInstances: 4 },
];

export async function benchWebSub(wanted: readonly string[] = []): Promise<Record<string, number | string>[]> {
  const outDir = await buildSample();
  const certs = createTestCertificates(scratchDir('bench-certs'));
  const subscriber = await startSubscriber(certs);
  let postgres: Promise<TestPostgres> | undefined;
  const cluster = () => (postgres ??= startPostgres());
  try {
    const results = [];
    for (const scenario of SCENARIOS) {
      if (wanted.length && !wanted.some((w) => scenario.name.startsWith(w))) continue;
      results.push(await runScenario(outDir, subscriber, certs.caFile, scenario, cluster));
    }
    return results;
  } finally {
    await subscriber.close();
    if (postgres) await (await postgres).stop();
  }
}

if (import.meta.main) {
  const results = await benchWebSub(process.argv.slice(2));
  console.table(results);
  console.log(
    `(${SUBSCRIBERS} subscriptions on one local HTTPS subscriber, all on host localhost; hub concurrency 32 per instance; ` +
      `HUB_TIMEOUT_MS=${DEFAULT_TIMEOUT_MS} (${FAILING_TIMEOUT_MS} in the failing scenario); retries after 100 and 200 ms; PostgreSQL 15 on the same machine, fsync off)`,
  );
}
