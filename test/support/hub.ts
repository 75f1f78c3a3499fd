/** Driving the hub of a real server: form posts, a server with hub settings, and a look at its database. */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { HubStore } from '../../src/server/websub/store/hub-store.ts';
import { createSqliteStore } from '../../src/server/websub/store/sqlite-store.ts';
import { TEST_SITE_URL } from './build.ts';
import { rawRequest, type RawResponse } from './http.ts';
import { startServer, type RunningServer } from './server.ts';

/** The rate limit of stores a test opens itself (the server's own is in runtime.ts). */
export const TEST_RATE = { burst: 30, perSecond: 1, maxClients: 100 };

export const TOPICS = {
  atom: `${TEST_SITE_URL}/feed.xml`,
  jsonFeed: `${TEST_SITE_URL}/api/feed.json`,
  reviews: `${TEST_SITE_URL}/reviews.json`,
} as const;

export async function hubPost(
  serverUrl: string,
  fields: Record<string, string>,
  localAddress?: string,
): Promise<RawResponse & { json: Record<string, unknown> }> {
  const res = await rawRequest(`${serverUrl}/api/websub/hub`, {
    method: 'POST',
    localAddress,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { ...res, json: res.text ? (JSON.parse(res.text) as Record<string, unknown>) : {} };
}

export interface HubServerOptions {
  hubDb: string;
  caFile: string;
  allowPrivate?: boolean;
  retryDelaysMs?: string;
  timeoutMs?: number;
  /** Puts the hub's state in PostgreSQL instead of hubDb. */
  databaseUrl?: string;
  perHostConcurrency?: number;
}

/** The real server with a hub that may call the local test subscriber. */
export function startHubServer(outDir: string, options: HubServerOptions): Promise<RunningServer> {
  return startServer(outDir, {
    HUB_DB: options.hubDb,
    NODE_EXTRA_CA_CERTS: options.caFile,
    HUB_ALLOW_PRIVATE_CALLBACKS: options.allowPrivate === false ? '0' : '1',
    HUB_RETRY_DELAYS_MS: options.retryDelaysMs ?? '100,200',
    HUB_TIMEOUT_MS: String(options.timeoutMs ?? 1000),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.perHostConcurrency ? { HUB_PER_HOST_CONCURRENCY: String(options.perHostConcurrency) } : {}),
  });
}

/** The hub's state as the server wrote it (WAL lets us read while it runs). */
export function readHubState(hubDb: string): { store: HubStore; close: () => void } {
  const db = new DatabaseSync(path.resolve(hubDb));
  return { store: createSqliteStore(db, TEST_RATE), close: () => db.close() };
}
