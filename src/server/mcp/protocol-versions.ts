/**
 * The MCP protocol versions this endpoint serves: the one list that the README,
 * the OpenAPI description and docs/mcp.md repeat (a test holds them to it).
 * Newest first; an `initialize` asking for another version is answered with the newest.
 */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

export const LATEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[0];

export function isProtocolVersion(version: string): boolean {
  return (PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The version an `initialize` asking for `requested` gets. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && isProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** JSON-RPC batches were removed by 2025-06-18: only sessions of older versions may send them. */
export function allowsBatches(version: string): boolean {
  return version < '2025-06-18';
}

/** The versions in words, for messages and docs: "2025-11-25, 2025-06-18, … and 2024-10-07". */
export function protocolVersionsText(): string {
  return `${PROTOCOL_VERSIONS.slice(0, -1).join(', ')} and ${PROTOCOL_VERSIONS.at(-1)}`;
}
