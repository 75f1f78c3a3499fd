/**
 * GET /api/health: liveness, the build served (npm start asks when its port is
 * taken) and whether the hub can use its store.
 */
import { buildHealth } from '../builds/served-build.ts';
import { apiErrorAnswer } from '../http/api-error.ts';
import { READ_METHODS, route } from '../http/route.ts';
import type { Route } from '../http/pipeline.ts';
import type { HubStarter } from '../websub/hub-services.ts';

export function healthRoute(hub: HubStarter, runningCode: string | undefined): Route {
  return route({
    name: 'health',
    path: '/api/health',
    methods: READ_METHODS,
    async handle() {
      let problem: string | undefined;
      try {
        problem = await (await hub.start()).problem();
      } catch (error) {
        return apiErrorAnswer(503, 'unavailable', `The WebSub hub could not start: ${(error as Error).message}`);
      }
      if (problem) return apiErrorAnswer(503, 'hub_unavailable', `The WebSub hub cannot use its database: ${problem}`);
      return {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
        body: `${JSON.stringify({ status: 'ok', build: buildHealth(runningCode) })}\n`,
      };
    },
  });
}
