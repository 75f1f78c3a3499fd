/**
 * The MCP protocol versions this endpoint serves: the one list that the README,
 * the OpenAPI description and docs/mcp.md repeat (a test holds them to it).
 * Newest first. 2026-07-28 is stateless (no initialize, a `_meta` envelope on every
 * request); the older ones begin with `initialize`, and one asking for a version
 * not listed (or for 2026-07-28) is answered with the newest of them.
 */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

/** The first revision without initialize and sessions. */
const FIRST_MODERN_VERSION = '2026-07-28';

/** Whether `version` is one of ours without initialize and sessions. */
export function isModernVersion(version: string): boolean {
  return isProtocolVersion(version) && version >= FIRST_MODERN_VERSION;
}

/** The newest version an `initialize` can negotiate. */
export const LATEST_SESSION_VERSION = PROTOCOL_VERSIONS.find((version) => !isModernVersion(version)) as string;

export function isProtocolVersion(version: string): boolean {
  return (PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The version an `initialize` asking for `requested` gets. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && isProtocolVersion(requested) && !isModernVersion(requested) ? requested : LATEST_SESSION_VERSION;
}

/** JSON-RPC batches were removed by 2025-06-18: only sessions of older versions may send them. */
export function allowsBatches(version: string): boolean {
  return version < '2025-06-18';
}

/** The versions in words, for messages and docs: "2025-11-25, 2025-06-18, … and 2024-10-07". */
export function protocolVersionsText(): string {
  return `${PROTOCOL_VERSIONS.slice(0, -1).join(', ')} and ${PROTOCOL_VERSIONS.at(-1)}`;
}
