/**
 * The store the configuration names: PostgreSQL when DATABASE_URL is set (any
 * number of instances share it), else the SQLite file HUB_DB (one process).
 */
import path from 'node:path';
import type { RateLimitOptions } from '../../../domain/websub/rate-limit.ts';
import type { Config } from '../../config.ts';
import type { HubStore } from './hub-store.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openHubDatabase } from './sqlite-database.ts';
import { createSqliteStore } from './sqlite-store.ts';

export function hubDatabaseFile(config: Pick<Config, 'HUB_DB' | 'projectRoot'>): string {
  return config.HUB_DB === ':memory:' ? ':memory:' : path.resolve(config.projectRoot, config.HUB_DB);
}

export async function openHubStore(config: Config, rate: RateLimitOptions): Promise<HubStore> {
  if (config.DATABASE_URL) return openPostgresStore(config.DATABASE_URL, rate);
  const file = hubDatabaseFile(config);
  return createSqliteStore(openHubDatabase(file), rate, { file });
}
