import type { Config } from '../config.ts';
import { createAppServer, listen } from './server.ts';

/** Serves an existing build until SIGINT or SIGTERM. */
export async function serve(config: Config): Promise<void> {
  const server = await createAppServer({ outDir: config.outDir });
  const { host, port } = await listen(server, config.PORT, config.HOST);
  console.log(`Serving ${config.SITE_URL} at http://${host.includes(':') ? `[${host}]` : host}:${port}/`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
    });
  }
}
