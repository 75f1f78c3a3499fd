/**
 * When PORT is taken, says by what: a server of this service (its /api/health names
 * the build it serves) or some other program. After `npm start` has built, the running
 * server switches within seconds (longer for a large catalog), so that is awaited.
 */
import { existsSync } from 'node:fs';
import { buildDir, currentBuildId } from '../../build/build-layout.ts';
import { builtSiteUrl } from '../config.ts';
import { selfUrl } from './self-url.ts';

const SWITCH_WAIT_MS = 10_000;

interface HealthBody {
  status?: string;
  build?: { id?: string };
}

async function servedBuildAt(url: string): Promise<string | undefined | null> {
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
    const body = (await res.json()) as HealthBody;
    return typeof body.build?.id === 'string' ? body.build.id : null;
  } catch {
    // Not HTTP, not JSON, or no answer: not one of ours.
    return undefined;
  }
}

/** The sentence for a taken HOST:PORT; `servesCurrentBuild` when a server of ours already serves OUT_DIR's current build. */
export async function describePortHolder(host: string, port: number, outDir: string): Promise<{ message: string; servesCurrentBuild: boolean }> {
  const currentId = currentBuildId(outDir);
  const url = selfUrl(host, port);
  const taken = `Cannot start the server: port ${port} on ${host} is already in use`;
  const deadline = Date.now() + SWITCH_WAIT_MS;
  let served = await servedBuildAt(url);
  while (served && currentId && served !== currentId && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    served = await servedBuildAt(url);
  }
  if (served === undefined) return { message: `${taken} by another program; stop it or set PORT.`, servesCurrentBuild: false };
  if (served === null) return { message: `${taken} by a server of this service at ${url}/ that does not say which build it serves; stop it or set PORT.`, servesCurrentBuild: false };
  if (currentId === undefined || served === currentId) {
    return { message: `A server of this service is already running at ${url}/ and now serves build ${served}, the current build: nothing else to do.`, servesCurrentBuild: true };
  }
  return { message: `${taken} by a server of this service at ${url}/ that ${whyNotCurrent(outDir, served, currentId)}`, servesCurrentBuild: false };
}

/**
 * Why the holder serves another build than OUT_DIR's current one. A build of this
 * OUT_DIR made for another SITE_URL is one a server never switches to (its links
 * would name another site): that is the cause to name, not another OUT_DIR.
 */
function whyNotCurrent(outDir: string, served: string, currentId: string): string {
  const servedDir = buildDir(outDir, served);
  if (!existsSync(servedDir)) {
    return `serves build ${served}, which is not in ${outDir} (another OUT_DIR); stop it or set PORT.`;
  }
  const servedSite = builtSiteUrl(servedDir);
  const currentSite = builtSiteUrl(buildDir(outDir, currentId));
  if (servedSite && currentSite && servedSite !== currentSite) {
    return (
      `serves build ${served}, made for SITE_URL ${servedSite}; the current build ${currentId} was made for ${currentSite}, ` +
      `and a server never switches to a build made for another SITE_URL. Stop that server, or build for its address ` +
      `(SITE_URL=${servedSite} npm run build), or set PORT to serve this build elsewhere.`
    );
  }
  return `serves build ${served}, not the current build ${currentId}; stop it or set PORT.`;
}
