import { siteUrlNote, type Config } from '../config.ts';
import { runShutdownHooks } from '../runtime/shutdown.ts';
import { createAppServer, listen } from './server.ts';

/** Where to reach our own listener: a wildcard address is reached over loopback. */
function selfUrl(host: string, port: number): string {
  const target = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${target.includes(':') ? `[${target}]` : target}:${port}`;
}

/**
 * The runtime services (the WebSub hub's worker) live in the Astro-bundled code;
 * one request to /api/health starts them, so pending work resumes at start-up
 * rather than on the first visitor's request.
 */
async function warmUp(host: string, port: number): Promise<void> {
  const res = await fetch(`${selfUrl(host, port)}/api/health`, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`Cannot start the server: /api/health answered ${res.status}: ${await res.text()}`);
}

/** Serves an existing build until SIGINT or SIGTERM. */
export async function serve(config: Config): Promise<void> {
  const server = await createAppServer({ outDir: config.outDir });
  const { host, port } = await listen(server, config.PORT, config.HOST);
  try {
    await warmUp(host, port);
  } catch (error) {
    server.close();
    server.closeAllConnections();
    throw error;
  }
  console.log(`Serving ${config.SITE_URL} at http://${host.includes(':') ? `[${host}]` : host}:${port}/`);
  const note = siteUrlNote(config.SITE_URL, port);
  if (note) console.log(note);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close();
      server.closeAllConnections();
      // Deliveries in flight get a short grace period before the process exits.
      void runShutdownHooks().finally(() => process.exit(0));
    });
  }
}
