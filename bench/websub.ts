/**
 * WebSub fan-out: 1,000 subscriptions on local HTTPS callbacks, one publish of
 * /reviews.json of the sample content. Prints the time from the publish ping to
 * the last delivery, deliveries per second and the server's peak memory; then
 * the same with 10% of the callbacks failing (5% answer 500, 5% never answer).
 *
 * Standalone: `./node_modules/.bin/node bench/websub.ts` (or through bench/run.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite, isBuildCurrent } from '../src/build/build-site.ts';
import { openHubDatabase } from '../src/server/websub/store/sqlite-database.ts';
import { createSqliteStore } from '../src/server/websub/store/sqlite-store.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../test/support/build.ts';
import { hubPost, TEST_RATE } from '../test/support/hub.ts';
import { createTestCertificates, scratchDir, startSubscriber, type Answer, type Subscriber } from '../test/support/https-subscriber.ts';
import { startServer } from '../test/support/server.ts';

const SUBSCRIBERS = 1000;
const TOPIC = `${TEST_SITE_URL}/reviews.json`;
const TIMEOUT_MS = 2000;

function buildSample(): string {
  const contentDir = path.join(PROJECT_ROOT, 'content');
  const outDir = path.join(PROJECT_ROOT, 'tmp/bench-builds/websub');
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl: TEST_SITE_URL, outDir, stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) buildSite(build);
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
}

async function runScenario(outDir: string, subscriber: Subscriber, caFile: string, scenario: Scenario) {
  const dir = scratchDir(`bench-${scenario.name}`);
  const hubDb = path.join(dir, 'hub.sqlite');
  // Subscriptions are seeded straight into the store: the rate limit would (rightly) stop 1,000 subscribe requests from one client.
  const seed = openHubDatabase(hubDb);
  const store = createSqliteStore(seed, TEST_RATE);
  const healthy: string[] = [];
  const failing: string[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const name = `${scenario.name}-${i}`;
    const plan = scenario.planOf(i);
    const callback = subscriber.callback(name, { deliver: plan });
    (plan[0] === 200 ? healthy : failing).push(name);
    await store.activateSubscription({ topic: TOPIC, callback, callbackHost: 'localhost', callbackAddress: '127.0.0.1', secret: i % 2 ? `secret-${i}` : null, leaseSeconds: 864_000 }, Date.now());
  }
  seed.close();

  const server = await startServer(outDir, {
    HUB_DB: hubDb, NODE_EXTRA_CA_CERTS: caFile, HUB_ALLOW_PRIVATE_CALLBACKS: '1', HUB_RETRY_DELAYS_MS: '100,200', HUB_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  try {
    const before = memoryOf(server.process.pid as number);
    const started = performance.now();
    const ping = await hubPost(server.url, { 'hub.mode': 'publish', 'hub.url': TOPIC });
    if (ping.status !== 202) throw new Error(`publish ping answered ${ping.status}: ${ping.text}`);
    await subscriber.waitFor('every healthy delivery', () => healthy.every((n) => subscriber.acknowledged(n).length === 1), 300_000);
    const lastHealthy = performance.now() - started;
    await subscriber.waitFor('every failing callback dropped', () => failing.every((n) => subscriber.denials(n).length === 1), 300_000);
    const settled = performance.now() - started;
    const bytes = subscriber.acknowledged(healthy[0] as string)[0]?.body.length ?? 0;
    return {
      scenario: scenario.name,
      subscriptions: SUBSCRIBERS,
      failing: failing.length,
      payload_kib: Math.round(bytes / 102.4) / 10,
      ms_to_last_healthy_delivery: Math.round(lastHealthy),
      healthy_deliveries_per_s: Math.round(healthy.length / (lastHealthy / 1000)),
      ms_until_failing_dropped: Math.round(settled),
      server_rss_before_mib: before.rssMiB,
      server_peak_rss_mib: memoryOf(server.process.pid as number).peakMiB,
    };
  } finally {
    await server.stop();
  }
}

export async function benchWebSub(): Promise<Record<string, number | string>[]> {
  const outDir = buildSample();
  const certs = createTestCertificates(scratchDir('bench-certs'));
  const subscriber = await startSubscriber(certs);
  try {
    const results = [];
    results.push(await runScenario(outDir, subscriber, certs.caFile, { name: 'all-healthy', planOf: () => [200] }));
    results.push(
      await runScenario(outDir, subscriber, certs.caFile, {
        name: 'ten-percent-failing',
        planOf: (i) => (i % 20 === 0 ? [500] : i % 20 === 10 ? ['hang'] : [200]),
      }),
    );
    return results;
  } finally {
    await subscriber.close();
  }
}

if (import.meta.main) {
  const results = await benchWebSub();
  console.table(results);
  console.log(`(${SUBSCRIBERS} subscriptions on one local HTTPS subscriber; hub concurrency 32; HUB_TIMEOUT_MS=${TIMEOUT_MS}; retries after 100 and 200 ms)`);
}
