/**
 * The MCP server card and the site's catalog of MCP servers, as the server-card
 * extension (SEP-2127, repository modelcontextprotocol/experimental-ext-server-card,
 * docs/discovery.md) defines them: the card at `<mcp-url>/server-card`
 * (`application/mcp-server-card+json`), the catalog at `/.well-known/mcp/catalog.json`
 * and, under the name the extension's latest text gives it (an AI Catalog), at
 * `/.well-known/ai-catalog.json`. The card says what /server.json says, from the
 * same source (mcpServerIdentity); like the extension, it lists no tools: those
 * are tools/list's.
 */
import { mcpServerIdentity, type ServerJsonInput } from './mcp-server-json.ts';

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const AI_CATALOG_TYPE = 'application/ai-catalog+json';
/** The card's path under the MCP endpoint's URL, which the extension reserves. */
export const SERVER_CARD_SUFFIX = '/server-card';

export function serverCard(input: ServerJsonInput) {
  const { name, title, description, version, websiteUrl, remote, protocolVersions } = mcpServerIdentity(input);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name,
    title,
    description,
    version,
    websiteUrl,
    remotes: [{ ...remote, supportedProtocolVersions: protocolVersions }],
  };
}

/** `urn:air:reviews.example.com:mcp:reviews`: the extension's domain-anchored identifier. */
export function catalogIdentifier(siteUrl: string): string {
  const [, server] = mcpServerIdentity({ siteUrl, businessName: '', version: '' }).name.split('/');
  return `urn:air:${new URL(siteUrl).hostname}:mcp:${server}`;
}

export function mcpCatalog(siteUrl: string) {
  const { remote } = mcpServerIdentity({ siteUrl, businessName: '', version: '' });
  return {
    specVersion: '1.0',
    entries: [{ identifier: catalogIdentifier(siteUrl), type: SERVER_CARD_TYPE, url: `${remote.url}${SERVER_CARD_SUFFIX}` }],
  };
}
