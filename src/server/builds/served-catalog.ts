/**
 * The review catalog of a build, built once per build from its published
 * /reviews.json (see catalog-loader.ts). Search, sync and the MCP tools all read
 * it, so they agree with each other and with the static files. A switch prepares
 * the next build's catalog a slice at a time before it installs the build
 * (build-watcher.ts), so no request waits for it.
 */
import { runSteps } from '../../domain/catalog/catalog-builder.ts';
import type { ReviewCatalog } from '../../domain/catalog/review-catalog.ts';
import { catalogLoadSteps } from './catalog-loader.ts';
import { runSliced } from './run-sliced.ts';
import type { LoadedBuild } from './loaded-build.ts';
import { servedBuild } from './served-build.ts';

const CATALOG = Symbol('review-catalog');

/** The build's catalog; built at once if it was not prepared (the server's first build, before it listens). */
export function catalogOf(build: LoadedBuild): ReviewCatalog {
  return build.memo(CATALOG, () => runSteps(catalogLoadSteps(build)));
}

/** Builds the catalog of `build` without holding the event loop, borrowing from `previous`'s. */
export async function prepareCatalog(build: LoadedBuild, previous?: ReviewCatalog): Promise<ReviewCatalog> {
  const catalog = await runSliced(catalogLoadSteps(build, previous));
  return build.memo(CATALOG, () => catalog);
}

export function servedCatalog(): ReviewCatalog {
  return catalogOf(servedBuild());
}
