/** The one list of supported MCP protocol versions, said the same way wherever it is said. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { negotiatedVersion, PROTOCOL_VERSIONS, protocolVersionsText } from '../../../src/domain/mcp-protocol-versions.ts';
import { mcpPaths } from '../../../src/domain/openapi/mcp-paths.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const sentence = `Protocol versions: ${protocolVersionsText()}.`;
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('supported protocol versions', () => {
  it('are the same list in the README, docs/mcp.md and the OpenAPI description', () => {
    expect(sentence).toBe('Protocol versions: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 and 2024-10-07.');
    expect(flat(readFileSync(path.join(root, 'README.md'), 'utf8'))).toContain(sentence);
    expect(flat(readFileSync(path.join(root, 'docs/mcp.md'), 'utf8'))).toContain(sentence);
    const post = mcpPaths()['/mcp']?.post as { description: string; parameters: { name: string; schema: { enum?: string[] } }[] };
    expect(post.description).toContain(sentence);
    expect(post.parameters.find((p) => p.name === 'MCP-Protocol-Version')?.schema.enum).toEqual([...PROTOCOL_VERSIONS]);
  });

  it('initialize negotiates a 2025 version: the one asked for, else the newest', () => {
    expect(negotiatedVersion('2025-03-26')).toBe('2025-03-26');
    expect(negotiatedVersion('2026-07-28')).toBe('2025-11-25');
    expect(negotiatedVersion('1999-01-01')).toBe('2025-11-25');
    expect(negotiatedVersion(7)).toBe('2025-11-25');
  });
});
