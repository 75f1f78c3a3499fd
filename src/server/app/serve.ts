import { pinBuild } from '../../build/build-layout.ts';
import { siteUrlNote, type Config } from '../config.ts';
import { watchBuilds } from '../builds/build-watcher.ts';
import { prepareMcpContent } from '../mcp/content.ts';
import { createAppServer, listen, ListenError } from './app-server.ts';
import { describePortHolder } from './port-holder.ts';
import { collectStartUpGarbage } from './start-up-memory.ts';

/** Another server holds the port: what it is, and whether it already serves OUT_DIR's current build. */
export class PortTakenError extends Error {
  readonly servesCurrentBuild: boolean;
  constructor(message: string, servesCurrentBuild: boolean) {
    super(message);
    this.servesCurrentBuild = servesCurrentBuild;
  }
}

/**
 * Serves OUT_DIR's current build until SIGINT or SIGTERM, and switches to each later
 * build (or rollback) as it appears.
 */
export async function serve(config: Config): Promise<void> {
  const { server, codeBuildId, startServices, stopServices } = await createAppServer(config);
  collectStartUpGarbage();
  let address: { host: string; port: number };
  try {
    address = await listen(server, config.PORT, config.HOST);
  } catch (error) {
    if (error instanceof ListenError && error.code === 'EADDRINUSE') {
      const holder = await describePortHolder(config.HOST, config.PORT, config.outDir);
      throw new PortTakenError(holder.message, holder.servesCurrentBuild);
    }
    throw error;
  }
  const { host, port } = address;
  // Astro's bundle imports its chunks lazily from this build: pruning must spare it while we run.
  const unpin = codeBuildId === 'flat' ? () => {} : pinBuild(config.outDir, codeBuildId);
  process.once('exit', unpin);
  try {
    await startServices();
  } catch (error) {
    unpin();
    server.close();
    server.closeAllConnections();
    throw new Error(`Cannot start the server: the WebSub hub could not start: ${(error as Error).message}`);
  }
  const stopWatching = watchBuilds({ outDir: config.outDir, siteUrl: config.SITE_URL, log: (line) => console.log(line), prepare: prepareMcpContent });
  console.log(`Serving ${config.SITE_URL} at http://${host.includes(':') ? `[${host}]` : host}:${port}/ (build ${codeBuildId})`);
  const note = siteUrlNote(config.SITE_URL, port);
  if (note) console.log(note);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopWatching();
      unpin();
      server.close();
      server.closeAllConnections();
      // Deliveries in flight get a short grace period before the process exits.
      void stopServices()
        .catch((error: unknown) => console.error(`Stopping the hub: ${(error as Error).message}`))
        .finally(() => process.exit(0));
    });
  }
}
