/**
 * Host and Origin checks of the MCP endpoint, against DNS rebinding: a page on
 * evil.example whose name was made to resolve to 127.0.0.1 reaches a local
 * server with `Host: evil.example` and `Origin: http://evil.example`, and must
 * be refused. Real clients are not browsers and send no Origin; browser clients
 * are served from the allowed origins only.
 */

export interface OriginPolicy {
  /** Exact origins (scheme://host[:port]) allowed to call, e.g. the site's own. */
  readonly origins: ReadonlySet<string>;
  /** Whether any loopback origin is allowed: only when the server itself listens on loopback. */
  readonly loopbackOrigins: boolean;
  /** Host names (no port) the endpoint answers to besides the loopback names. */
  readonly hostnames: ReadonlySet<string>;
}

export interface OriginPolicyInput {
  siteUrl: string;
  allowedOrigins: readonly string[];
  /** The address the server listens on (HOST). */
  listenHost: string;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1, as a URL's `hostname` writes them. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '[::1]' ||
    name === '::1' ||
    /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(name)
  );
}

/** The origin of a URL as a browser writes it in `Origin`, or undefined if it is not an http(s) URL. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

function hostnameOf(hostHeader: string): string | undefined {
  try {
    const url = new URL(`http://${hostHeader}`);
    // A Host header is host[:port] and nothing else.
    return url.pathname === '/' && !url.username && !url.password && !url.search && !url.hash ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

export function originPolicy({ siteUrl, allowedOrigins, listenHost }: OriginPolicyInput): OriginPolicy {
  const origins = new Set<string>();
  for (const candidate of [siteUrl, ...allowedOrigins]) {
    const origin = originOf(candidate);
    if (origin) origins.add(origin);
  }
  const hostnames = new Set<string>([new URL(siteUrl).hostname]);
  const listening = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
  if (!WILDCARD_HOSTS.has(listening)) hostnames.add(listening.toLowerCase());
  return { origins, loopbackOrigins: isLoopbackHostname(listening), hostnames };
}

export type GuardResult = { ok: true; origin: string | undefined } | { ok: false; message: string };

/** Checks a request's Host and Origin headers (null when absent); `origin` is the allowed Origin to echo in CORS headers. */
export function checkHostAndOrigin(host: string | null, origin: string | null, policy: OriginPolicy): GuardResult {
  if (host !== null) {
    const hostname = hostnameOf(host);
    if (hostname === undefined || !(isLoopbackHostname(hostname) || policy.hostnames.has(hostname.toLowerCase().replace(/\.$/, '')))) {
      return { ok: false, message: `Forbidden: this MCP endpoint does not answer to the host ${JSON.stringify(host)}.` };
    }
  }
  if (origin === null) return { ok: true, origin: undefined };
  const normalized = originOf(origin);
  const allowed =
    normalized !== undefined &&
    (policy.origins.has(normalized) || (policy.loopbackOrigins && isLoopbackHostname(new URL(normalized).hostname)));
  if (!allowed) {
    return {
      ok: false,
      message: `Forbidden: requests from the origin ${JSON.stringify(origin)} are not allowed; the operator can allow it with MCP_ALLOWED_ORIGINS.`,
    };
  }
  return { ok: true, origin };
}
