/**
 * The server: one Node process answers every request through one pipeline of
 * steps around the route table (routes.ts). The pre-rendered files come from the
 * served build, which build-watcher.ts switches; the on-demand pages are rendered
 * by Astro's handler, the last route.
 */
import { createServer, type Server } from 'node:http';
import { servedBuildDir } from '../../build/build-layout.ts';
import { catalogOf } from '../builds/served-catalog.ts';
import { noteArrival } from '../builds/run-sliced.ts';
import { installBuild, loadBuild } from '../builds/loaded-build.ts';
import { answerClientError, answerConnect } from '../http/client-error.ts';
import { compose, newExchange, type Route } from '../http/pipeline.ts';
import { allowedMethods } from '../http/steps/allowed-methods.ts';
import { compressAnswer } from '../http/steps/compression.ts';
import { percentEncoding } from '../http/steps/percent-encoding.ts';
import { preflight } from '../http/steps/preflight.ts';
import { requestTarget } from '../http/steps/request-target.ts';
import { routing } from '../http/steps/routing.ts';
import { unexpectedError } from '../http/steps/unexpected-error.ts';
import { writeOutcome } from '../http/steps/write-answer.ts';
import { getMcpContent, mcpContentOf } from '../mcp/content.ts';
import { createMcpServer } from '../mcp/server.ts';
import { mcpSettings } from '../mcp/settings.ts';
import { hubStarter } from '../websub/hub-services.ts';
import type { Config } from '../config.ts';
import { loadPageRenderer } from './page-route.ts';
import { routeTable } from './routes.ts';

export interface AppServer {
  server: Server;
  /** The build the server started on: its Astro renderer renders the pages until a restart. */
  codeBuildId: string;
  /** Starts the hub (its worker resumes pending work at once); rejects when it cannot start. */
  startServices(): Promise<void>;
  /** Stops the services started (the hub's worker and store); the caller closes the server. */
  stopServices(): Promise<void>;
}

/** The steps every request takes, in order, around the route the table chooses. */
export function pipeline(routes: readonly Route[]) {
  return compose([
    unexpectedError,
    writeOutcome,
    requestTarget,
    routing(routes),
    percentEncoding,
    preflight,
    allowedMethods,
    compressAnswer,
    (exchange) => exchange.route?.handle(exchange),
  ]);
}

/** Serves the build OUT_DIR names now; build-watcher.ts switches to later ones. */
export async function createAppServer(config: Config): Promise<AppServer> {
  const served = servedBuildDir(config.outDir);
  const first = loadBuild(served.id, served.dir);
  installBuild(first);
  // Made now rather than by the first request, which would wait for them (seconds at 100,000 reviews).
  catalogOf(first);
  mcpContentOf(first);
  const pages = await loadPageRenderer(served.dir);
  const hub = hubStarter(config);
  const routes = routeTable({
    hub,
    mcp: { settings: mcpSettings(config), createServer: (budget) => createMcpServer(getMcpContent(), budget), direct: () => getMcpContent().direct },
    pages,
    runningCode: first.codeFingerprint,
  });
  const run = pipeline(routes);
  const server = createServer((req, res) => void run(newExchange(req, res)));
  server.on('connection', noteArrival);
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  return {
    server,
    codeBuildId: served.id,
    async startServices() {
      const problem = await (await hub.start()).problem();
      if (problem) throw new Error(`it cannot use its database: ${problem}`);
    },
    stopServices: async () => {
      const started = hub.started();
      if (started) await (await started).stop();
    },
  };
}

/** A listen failure with its cause's code (EADDRINUSE, EACCES, …) and a sentence for people. */
export class ListenError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.code = code;
  }
}

/** Listens, turning "port in use" and friends into an error instead of a silent exit. */
export function listen(server: Server, port: number, host: string): Promise<{ port: number; host: string }> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use; stop the other process or set PORT`
          : error.code === 'EACCES'
            ? `no permission to listen on ${host}:${port}; choose a PORT above 1023`
            : error.message;
      reject(new ListenError(`Cannot start the server: ${reason}.`, error.code));
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve({ port: typeof address === 'object' && address ? address.port : port, host });
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
