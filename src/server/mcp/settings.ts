/** The MCP endpoint's settings, resolved once per process from the configuration. */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { originPolicy, type OriginPolicy } from './origin-guard.ts';
import { sessionTokens, type SessionTokens } from './session-token.ts';

export interface McpSettings {
  readonly policy: OriginPolicy;
  readonly sessions: SessionTokens;
  /** Largest request body read, in bytes: MCP requests are small JSON objects. */
  readonly maxBodyBytes: number;
  /** Largest answer built, in bytes (see answer-budget.ts). */
  readonly maxAnswerBytes: number;
}

const MAX_BODY_BYTES = 256 * 1024;

export function mcpSettings(config: Config, warn: (message: string) => void = console.warn): McpSettings {
  let secret: string | Buffer | undefined = config.MCP_SESSION_SECRET;
  if (secret === undefined) {
    secret = randomBytes(32);
    warn(
      'MCP_SESSION_SECRET is not set: MCP session ids are signed with a random key of this process. ' +
        'They stop working after a restart and on other instances; set the same secret everywhere to avoid that.',
    );
  }
  if (config.MCP_RESULT_MAX_CHARS !== undefined) {
    warn('MCP_RESULT_MAX_CHARS is no longer read: MCP results are now bounded in tokens by MCP_RESULT_MAX_TOKENS (default 20000); see docs/mcp.md.');
  }
  return {
    policy: originPolicy({ siteUrl: config.SITE_URL, allowedOrigins: config.MCP_ALLOWED_ORIGINS, listenHost: config.HOST }),
    sessions: sessionTokens({ secret }),
    maxBodyBytes: MAX_BODY_BYTES,
    maxAnswerBytes: config.MCP_ANSWER_MAX_BYTES,
  };
}
