/**
 * What the MCP server serves, prepared once per build from the served build's
 * published documents and the review catalog (the same ones the HTTP routes read).
 */
import { mcpServerIdentity } from '../../domain/mcp-server-json.ts';
import { getConfig } from '../config.ts';
import { servedBuild } from '../builds/served-build.ts';
import { catalogOf } from '../builds/served-catalog.ts';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import { publishedDataOf } from '../builds/published-data.ts';
import { promptSet } from './prompts.ts';
import { resourceSet, type PublishedDocument } from './resources.ts';
import { resultBudget } from './result-budget.ts';
import { CACHE_TTL_MS, CAPABILITIES, type McpContent } from './server.ts';
import { reviewTools } from './tools/index.ts';
import { insightsTokenSteps } from './tools/insights.ts';
import { runSliced } from '../builds/run-sliced.ts';
import packageJson from '../../../package.json' with { type: 'json' };

const DOCUMENTS: readonly Omit<PublishedDocument, 'size' | 'text'>[] = [
  {
    path: '/reviews.json',
    name: 'reviews',
    title: 'Reviews dataset',
    description: 'Every verified review (newest first) with the business profile and its aggregate rating.',
    mimeType: 'application/json',
  },
  {
    path: '/insights.json',
    name: 'insights',
    title: 'Review insights',
    description: 'Aspect-based sentiment, technicians, services and service areas, topics, FAQ and summary derived from the reviews.',
    mimeType: 'application/json',
  },
  {
    path: '/api/feed.json',
    name: 'feed',
    title: 'JSON Feed of the newest reviews',
    description: 'JSON Feed 1.1 of the 50 newest reviews.',
    mimeType: 'application/feed+json',
  },
];

function mcpContent(build: LoadedBuild): McpContent {
  const published = publishedDataOf(build);
  const catalog = catalogOf(build);
  const { name } = catalog.business;
  const documents = DOCUMENTS.map((document) => ({ ...document, size: build.file(document.path).size, text: () => build.text(document.path) }));
  // The same name, title and version as /server.json and the server card.
  const { serverInfo: info } = mcpServerIdentity({ siteUrl: getConfig().SITE_URL, businessName: name, version: packageJson.version });
  const budget = resultBudget(getConfig().MCP_RESULT_MAX_TOKENS, info);
  const tools = reviewTools(catalog, published, budget);
  const resources = resourceSet(getConfig().SITE_URL, documents, catalog, budget);
  const prompts = promptSet(catalog);
  const instructions =
    `Verified customer reviews of ${name}, read-only. get_business gives the business, its technicians and services (with ids) ` +
    'and its rating; search_reviews filters reviews by rating, date, text, technician and service; get_reviews_since lists ' +
    'reviews on or after a date, oldest first; get_review fetches one by id; get_insights gives sentiment per aspect, ' +
    'per technician and service, topics, FAQ and a summary. The datasets are also resources.';
  return {
    info,
    instructions,
    tools,
    direct: {
      tools,
      info,
      discover: { capabilities: CAPABILITIES, instructions },
      listTtlMs: CACHE_TTL_MS,
      lists: {
        'tools/list': ['tools', tools.list],
        'prompts/list': ['prompts', prompts.list],
        'resources/list': ['resources', resources.list],
        'resources/templates/list': ['resourceTemplates', resources.templates],
      },
    },
    resources,
    prompts,
  };
}

// Not a registered symbol: the server and Astro's bundle each prepare their own, as each runs its own copy of the tools.
const MCP_CONTENT = Symbol('mcp-content');

/** The MCP content of a build, made once: a switch makes the next build's before installing it (build-watcher.ts). */
export function mcpContentOf(build: LoadedBuild): McpContent {
  return build.memo(MCP_CONTENT, () => mcpContent(build));
}

/** Makes the MCP content of the build a switch installs next, its slow part (counting the insights' tokens) a slice at a time. */
export async function prepareMcpContent(build: LoadedBuild): Promise<void> {
  await runSliced(insightsTokenSteps(publishedDataOf(build).insights));
  mcpContentOf(build);
}

export function getMcpContent(): McpContent {
  return mcpContentOf(servedBuild());
}
