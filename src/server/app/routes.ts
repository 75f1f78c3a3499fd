/**
 * Every route the server answers, in the order they are tried: the first whose
 * path matches serves the request (docs/architecture.md shows this table; a test
 * holds the two together).
 */
import { buildFilesRoute, otherSpellingsRoute } from '../builds/build-files.ts';
import { apiErrorAnswer, notFoundAnswer } from '../http/api-error.ts';
import { route } from '../http/route.ts';
import type { Route } from '../http/pipeline.ts';
import { mcpRoute, type McpServing } from '../mcp/mcp-route.ts';
import { searchRoute, sinceRoute } from '../reviews/review-routes.ts';
import { widgetRoute } from '../reviews/widget-route.ts';
import type { HubStarter } from '../websub/hub-services.ts';
import { healthRoute } from './health-route.ts';
import { pageRoutes, type PageRenderer } from './page-route.ts';
import { reviewPageRoute } from './review-page-route.ts';

export interface RouteServices {
  hub: HubStarter;
  mcp: McpServing;
  pages: PageRenderer;
  /** The code fingerprint of the build the server started on: the code it runs. */
  runningCode: string | undefined;
}

/** Any other path under /api/ is the API's, and answers JSON whatever the method. */
const apiNotFound = route({ name: 'api not found', path: '/api/*', methods: 'any', handle: ({ url }) => notFoundAnswer(url.pathname) });

/** POST /api/websub/hub: the hub's own steps and operation (websub/hub-route.ts), once it has started. */
function hubRoute(hub: HubStarter): Route {
  return route({
    name: 'websub hub',
    path: '/api/websub/hub',
    methods: ['POST'],
    async handle(exchange) {
      let services;
      try {
        services = await hub.start();
      } catch (error) {
        return apiErrorAnswer(503, 'hub_unavailable', `The WebSub hub could not start: ${(error as Error).message}`);
      }
      return services.handle(exchange);
    },
  });
}

export function routeTable({ hub, mcp, pages, runningCode }: RouteServices): Route[] {
  const { reviewBrowser, embed, otherPages } = pageRoutes(pages);
  return [
    searchRoute,
    sinceRoute,
    widgetRoute,
    mcpRoute(mcp),
    hubRoute(hub),
    healthRoute(hub, runningCode),
    reviewBrowser,
    embed,
    buildFilesRoute,
    otherSpellingsRoute,
    // After the other spellings: /reviews/..%2freviews.json names a file, not a review.
    reviewPageRoute(pages, runningCode),
    apiNotFound,
    otherPages,
  ];
}
