/**
 * `npm run hub:migrate-to-postgres`: moves a SQLite hub (HUB_DB) into the
 * PostgreSQL store named by DATABASE_URL. Stop the server first; then start the
 * instances with DATABASE_URL set. See docs/scale-out.md.
 */
import { loadConfig } from '../src/server/config.ts';
import { copySqliteHubToPostgres } from '../src/server/websub/store/migrate-to-postgres.ts';
import { hubDatabaseFile } from '../src/server/websub/store/open-store.ts';
import { describeDatabaseUrl } from '../src/server/websub/store/postgres-database.ts';

try {
  if (process.argv.length > 2) {
    console.error('Usage: DATABASE_URL=postgres://… npm run hub:migrate-to-postgres   (copies HUB_DB, default data/hub.sqlite)');
    process.exit(2);
  }
  const config = loadConfig();
  if (!config.DATABASE_URL) throw new Error('Set DATABASE_URL to the PostgreSQL database to copy the hub into (postgres://user:password@host/db).');
  const file = hubDatabaseFile(config);
  const copied = await copySqliteHubToPostgres(file, config.DATABASE_URL);
  console.log(
    `Copied ${file} to ${describeDatabaseUrl(config.DATABASE_URL)}: ${copied.subscriptions} subscriptions, ` +
      `${copied.topics} topics' last distributed content, ${copied.deliveries} pending deliveries, ${copied.verifications} pending verifications.`,
  );
  console.log('Start the server (every instance) with this DATABASE_URL; keep the SQLite file until the new hub has delivered once.');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
