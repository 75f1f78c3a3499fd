/**
 * `/server.json`: the MCP server described as the MCP Registry's `server.json` format defines it
 * (schema 2025-12-11, the registry's current one): a reverse-DNS name from the site's host, one
 * `streamable-http` remote at `/mcp`, and the protocol versions it serves under the
 * publisher-provided `_meta` key (the format has no field of its own for them).
 * Docs: https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/server-json/generic-server-json.md
 */
import { PROTOCOL_VERSIONS } from './mcp-protocol-versions.ts';
import { siteUrls } from './site-urls.ts';

export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The one `_meta` key the official registry accepts from publishers. */
export const PUBLISHER_META_KEY = 'io.modelcontextprotocol.registry/publisher-provided';
/** The server's own name, as in its `serverInfo`. */
const SERVER_NAME = 'reviews';
/** The schema's limit on `description` and `title`, in characters. */
const MAX_TEXT = 100;

export interface ServerJsonInput {
  siteUrl: string;
  businessName: string;
  version: string;
}

/** `com.example.reviews/reviews` for https://reviews.example.com. */
export function serverJsonName(siteUrl: string): string {
  return `${new URL(siteUrl).hostname.split('.').reverse().join('.')}/${SERVER_NAME}`;
}

/** `text` cut to `max` characters (code points, as the schema counts them), ending in an ellipsis when cut. */
function fit(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/**
 * What every description of the server says the same way: /server.json, the server
 * card and its catalog (mcp-server-card.ts), and the serverInfo of initialize and
 * server/discover (src/server/mcp/content.ts) all take it from here.
 */
export function mcpServerIdentity({ siteUrl, businessName, version }: ServerJsonInput) {
  const urls = siteUrls(siteUrl);
  const title = fit(`${businessName} reviews`, MAX_TEXT);
  return {
    name: serverJsonName(siteUrl),
    title,
    description: fit(`Verified customer reviews of ${businessName}: search, rating and insights. Read-only.`, MAX_TEXT),
    version,
    websiteUrl: urls.home,
    remote: { type: 'streamable-http' as const, url: urls.mcp },
    protocolVersions: [...PROTOCOL_VERSIONS],
    /** The MCP `Implementation` the protocol's answers carry. */
    serverInfo: { name: SERVER_NAME, title, version },
  };
}

export function serverJson(input: ServerJsonInput) {
  const { name, title, description, version, websiteUrl, remote, protocolVersions } = mcpServerIdentity(input);
  return {
    $schema: SERVER_JSON_SCHEMA,
    name,
    title,
    description,
    version,
    websiteUrl,
    remotes: [remote],
    _meta: { [PUBLISHER_META_KEY]: { supportedProtocolVersions: protocolVersions } },
  };
}
