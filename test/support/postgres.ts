/**
 * A throwaway PostgreSQL cluster for tests and benches: initdb in a temp folder,
 * started with pg_ctl on a free loopback port, stopped and removed afterwards.
 * PostgreSQL refuses to run as root, so as root the binaries run as the
 * `postgres` user (the folder is handed to it). Durability is switched off: a
 * test cluster is thrown away anyway.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** PG_BIN, else the newest Debian install (/usr/lib/postgresql/<version>/bin). */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  return path.join(root, versions[0] ?? '15', 'bin');
}

export interface TestPostgres {
  /** The URL of database `name` (default: postgres). */
  url(name?: string): string;
  /** Creates an empty database and gives its URL. */
  createDatabase(name: string): Promise<string>;
  /** Creates an empty schema in the default database and gives a URL whose connections use it (much quicker than a database). */
  createSchema(name: string): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function runAsOwner(file: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, fullArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  execFileSync(command, fullArgs, { stdio: 'pipe' });
}

export async function startPostgres(): Promise<TestPostgres> {
  const BIN = postgresBin();
  if (!existsSync(path.join(BIN, 'initdb'))) {
    throw new Error(`PostgreSQL binaries not found in ${BIN} (set PG_BIN, or install postgresql: .ci/run does)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'hub-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  runAsOwner(path.join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  runAsOwner(path.join(BIN, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const url = (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`;
  let stopped = false;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const identifier = (name: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
    return name;
  };
  return {
    url,
    async createDatabase(name) {
      await run(`CREATE DATABASE ${identifier(name)}`);
      return url(name);
    },
    async createSchema(name) {
      await run(`CREATE SCHEMA ${identifier(name)}`);
      return `${url()}?options=${encodeURIComponent(`-c search_path=${name}`)}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        runAsOwner(path.join(BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
