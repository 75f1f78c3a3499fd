/**
 * Every setting comes from the environment, read and checked once here. A bad
 * value stops the process at start-up with a message that names the variable.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MANIFEST_FILE } from '../build/static-manifest.ts';
import { parseTrustedProxies, TrustProxyError } from '../domain/client-address.ts';

/**
 * What one MCP result may hold unless MCP_RESULT_MAX_TOKENS says otherwise. Here, not
 * beside the budget (mcp/result-budget.ts), so that reading the configuration does not
 * load the tokenizer: the build script reads it too.
 */
export const RESULT_MAX_TOKENS_DEFAULT = 20_000;

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

export const DEFAULT_PORT = 4321;

/** SITE_URL when it is not set: this machine at PORT (at the default port when PORT is 0, which picks a free one). */
export function defaultSiteUrl(port: number): string {
  return `http://127.0.0.1:${port || DEFAULT_PORT}`;
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveMs = z.coerce.number().int().min(1).max(600_000);

const envSchema = z.object({
  // Without SITE_URL, the site is where PORT says (see loadConfig).
  SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(DEFAULT_PORT),
  CONTENT_DIR: z.string().min(1).default('content'),
  OUT_DIR: z.string().min(1).default('dist'),
  HUB_DB: z.string().min(1).default('data/hub.sqlite'),
  /** postgres://… puts the hub's state in PostgreSQL (several instances share it); unset, the SQLite file HUB_DB. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  HUB_ALLOW_PRIVATE_CALLBACKS: flag,
  HUB_RETRY_DELAYS_MS: z
    .string()
    .default('60000,300000')
    .transform((v, ctx) => {
      const delays = v.split(',').map((part) => Number(part.trim()));
      if (delays.length < 1 || delays.some((d) => !Number.isInteger(d) || d < 0 || d > 86_400_000)) {
        ctx.addIssue({ code: 'custom', message: 'must be a comma list of whole milliseconds, e.g. "100,200"' });
        return z.NEVER;
      }
      return delays;
    }),
  HUB_TIMEOUT_MS: positiveMs.default(10_000),
  /** Requests in flight to one callback host, across every instance on the store. */
  HUB_PER_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  MCP_SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean)),
  // What one MCP result may hold, in tokens of what the client receives: a page past it comes back shorter (docs/mcp.md).
  MCP_RESULT_MAX_TOKENS: z.coerce
    .number({ error: 'must be a whole number of tokens, e.g. 20000' })
    .int('must be a whole number of tokens, e.g. 20000')
    .min(2000, 'must be at least 2000 (a result holds at least one whole review and its envelope)')
    .max(1_000_000, 'must be at most 1000000')
    .default(RESULT_MAX_TOKENS_DEFAULT),
  // Replaced by MCP_RESULT_MAX_TOKENS (it counted review JSON, not what a client receives); read only to warn.
  MCP_RESULT_MAX_CHARS: z.string().optional(),
  // Largest MCP answer built, in bytes (src/server/mcp/answer-budget.ts): 4 MiB unless set.
  MCP_ANSWER_MAX_BYTES: z.coerce.number().int().min(1024).max(256 * 1024 * 1024).default(4 * 1024 * 1024),
  PUBLISH_STATE_DIR: z.string().min(1).default('data/published'),
  /** The proxies whose forwarding headers name the client (src/domain/client-address.ts); unset, none. */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v, ctx) => {
      try {
        return parseTrustedProxies(v);
      } catch (error) {
        if (!(error instanceof TrustProxyError)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    }),
});

export type Config = Omit<z.infer<typeof envSchema>, 'SITE_URL'> & { SITE_URL: string; projectRoot: string; outDir: string; contentDir: string };


export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, projectRoot = process.cwd()): Config {
  // Unset and empty mean the same thing for every variable.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return {
    ...parsed.data,
    SITE_URL: (parsed.data.SITE_URL ?? defaultSiteUrl(parsed.data.PORT)).replace(/\/+$/, ''),
    projectRoot,
    outDir: path.resolve(projectRoot, parsed.data.OUT_DIR),
    contentDir: path.resolve(projectRoot, parsed.data.CONTENT_DIR),
  };
}

let current: Config | undefined;

/** The process's configuration, read from the environment on first use. */
export function getConfig(): Config {
  current ??= loadConfig();
  return current;
}

/** The site URL a build was made for, from its manifest; undefined when there is no build. */
export function builtSiteUrl(outDir: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')) as { siteUrl?: string };
    return manifest.siteUrl?.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Settings for serving a build as it is. The feeds, the hub's topics and MCP's
 * allowed origin must all name the same site, so SITE_URL defaults to the one the
 * build was made for, and a different one is an error rather than a hub that
 * refuses its own topics.
 */
export function loadServeConfig(env: NodeJS.ProcessEnv = process.env, projectRoot = process.cwd()): Config {
  const config = loadConfig(env, projectRoot);
  const built = builtSiteUrl(config.outDir);
  if (built === undefined) return config;
  if (!env.SITE_URL) {
    // The on-demand routes read their settings from the environment (getConfig) in this process.
    env.SITE_URL = built;
    return { ...config, SITE_URL: built };
  }
  if (config.SITE_URL !== built) {
    throw new ConfigError(
      `SITE_URL is ${config.SITE_URL}, but ${config.outDir} was built for ${built}. ` +
        'Build again for this address (npm run build, or npm start, which builds when needed), or leave SITE_URL unset.',
    );
  }
  return config;
}

/**
 * A line for the operator when the documents' links will not reach this server: a
 * loopback SITE_URL on another port (PORT=0, or `npm run serve` of a build made for
 * another port). Undefined when they agree, or when SITE_URL is a public address.
 */
export function siteUrlNote(siteUrl: string, port: number): string | undefined {
  const url = new URL(siteUrl);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  const sitePort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!loopback || sitePort === port) return undefined;
  return (
    `Note: links in the feeds, the OpenAPI document and the pages point to ${siteUrl} (SITE_URL), not to port ${port}. ` +
    'Set SITE_URL (or PORT, which moves its default) and build again to change them.'
  );
}
