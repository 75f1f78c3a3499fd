import '../schemas/datasets.ts';
import '../schemas/errors.ts';
import '../schemas/insights.ts';
import '../schemas/mcp-jsonrpc.ts';
import '../schemas/search.ts';
import '../schemas/widget.ts';
import '../websub/hub-form.ts';
import { componentSchemas } from './components.ts';
import { datasetPaths } from './dataset-paths.ts';
import type { PathItems } from './shared.ts';

export interface OpenApiOptions {
  siteUrl: string;
  businessName: string;
}

/** The OpenAPI 3.1 description of every route, built from the same schemas the code uses. */
export function openApiDocument({ siteUrl, businessName }: OpenApiOptions, ...extraPaths: PathItems[]): Record<string, unknown> {
  const paths: PathItems = Object.assign({}, datasetPaths(), ...extraPaths);
  return {
    openapi: '3.1.0',
    info: {
      title: `${businessName} reviews API`,
      version: '1.0.0',
      description:
        'Verified customer reviews and the insights derived from them, published read-only. ' +
        'No key or account is needed. Also available: an MCP server at POST /mcp and a WebSub hub at POST /api/websub/hub.',
      license: { name: 'Reviews are quoted with permission of their authors', identifier: 'LicenseRef-Reviews' },
    },
    servers: [{ url: siteUrl.replace(/\/+$/, '') }],
    security: [],
    tags: [
      { name: 'datasets', description: 'Pre-rendered documents.' },
      { name: 'feeds', description: 'JSON Feed and Atom; WebSub topics.' },
      { name: 'search', description: 'Search and incremental sync, answered on demand.' },
      { name: 'mcp', description: 'Model Context Protocol server for AI agents (JSON-RPC over streamable HTTP).' },
      { name: 'websub', description: 'The WebSub hub: pushes topic changes to subscribers.' },
      { name: 'embed', description: "For the business's own website: the widget's document and the badge." },
      { name: 'service', description: 'Operations.' },
    ],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1))),
    components: { schemas: componentSchemas() },
  };
}
