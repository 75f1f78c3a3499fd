/**
 * New work announced to every instance: NOTIFY on one channel, and each instance
 * LISTENs on it, so a publish through one instance wakes the workers of all.
 */
import pg from 'pg';
import type { Queryable } from './postgres-database.ts';

const CHANNEL = 'hub_work';
const RELISTEN_MS = 1000;

export interface WorkChannel {
  /** Calls `wake` whenever any instance announces work. */
  onWork(wake: () => void): void;
  announce(db: Queryable): Promise<void>;
  close(): Promise<void>;
}

export async function openWorkChannel(url: string): Promise<WorkChannel> {
  const listeners: (() => void)[] = [];
  let listener: pg.Client | undefined;
  let closed = false;

  /** LISTENs on its own connection (a pooled one would be handed to others); reconnects when it drops. */
  async function listen(): Promise<void> {
    if (closed || listener) return;
    const client = new pg.Client({ connectionString: url });
    listener = client;
    const retry = () => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => {});
      // Work announced while disconnected is found by the next look: wake once after reconnecting.
      if (!closed) setTimeout(() => void listen().then(() => listeners.forEach((l) => l()), () => {}), RELISTEN_MS).unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', () => {
      for (const wake of listeners) wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      console.error(`[hub] LISTEN on PostgreSQL failed, retrying: ${(error as Error).message}`);
      retry();
    }
  }

  await listen();

  return {
    onWork(wake) {
      listeners.push(wake);
    },

    async announce(db) {
      await db.query('SELECT pg_notify($1, $2)', [CHANNEL, '']);
    },

    async close() {
      closed = true;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}
