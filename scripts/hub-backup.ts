/**
 * `npm run hub:backup -- FILE`: an online, consistent copy of the hub's SQLite
 * database (HUB_DB) while the server runs. Restore: docs/websub.md, "Backup and restore".
 */
import { loadConfig } from '../src/server/config.ts';
import { describeDatabaseUrl } from '../src/server/websub/store/postgres-database.ts';
import { hubDatabaseFile } from '../src/server/websub/store/open-store.ts';
import { backupHubDatabase } from '../src/server/websub/store/sqlite-backup.ts';

const usage = 'Usage: npm run hub:backup -- <backup file>   (copies HUB_DB, default data/hub.sqlite, while the server runs)';

try {
  const target = process.argv[2];
  if (!target || target.startsWith('-') || process.argv.length > 3) {
    console.error(usage);
    process.exit(2);
  }
  const config = loadConfig();
  if (config.DATABASE_URL) {
    throw new Error(
      `The hub's store is PostgreSQL (${describeDatabaseUrl(config.DATABASE_URL)}): back it up with pg_dump, e.g. ` +
        `pg_dump --format=custom --table='hub_*' --file=${target} "$DATABASE_URL" (docs/scale-out.md).`,
    );
  }
  const source = hubDatabaseFile(config);
  const summary = await backupHubDatabase(source, target);
  console.log(`Backed up ${source} to ${summary.file}: ${summary.subscriptions} subscriptions, ${summary.pages} pages, checked.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
