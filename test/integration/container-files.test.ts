/**
 * What can be checked of the Dockerfile and compose.yaml without building (the image
 * itself is built and run by container.test.ts): compose's services, addresses and
 * files agree with each other and with the Dockerfile, so TRUST_PROXY names Caddy and
 * Caddy reaches the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../support/build.ts';

interface Service {
  build?: { context: string; args?: Record<string, string> };
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  networks?: Record<string, { ipv4_address: string }>;
}
const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'compose.yaml'), 'utf8')) as { services: Record<string, Service>; networks: Record<string, { ipam: { config: { subnet: string }[] } }> };
const dockerfile = readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');

describe('Dockerfile', () => {
  it('builds on a base image given as an argument, node:24-bookworm-slim by default, in two stages', () => {
    expect(dockerfile).toMatch(/^ARG BASE_IMAGE=node:24-bookworm-slim$/m);
    expect(dockerfile.match(/^FROM \$\{BASE_IMAGE\}/gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^RUN npm ci --no-audit --no-fund$/m);
  });

  it('runs as an unprivileged user, with the data on a volume and a health check', () => {
    expect(dockerfile).toMatch(/^USER reviews$/m);
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
    expect(dockerfile).toMatch(/^ENV .*OUT_DIR=\/data\/out HUB_DB=\/data\/hub\/hub\.sqlite$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [^\n]*\\\n\s+CMD \[[^\n]*\/api\/health/m);
    expect(existsSync(path.join(PROJECT_ROOT, 'deploy/container-start.sh'))).toBe(true);
  });
});

describe('compose.yaml', () => {
  const { reviews, postgres, caddy } = compose.services;

  it('has the server built from the Dockerfile, PostgreSQL and Caddy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['caddy', 'postgres', 'reviews']);
    expect(reviews?.build?.context).toBe('.');
    expect(postgres?.image).toMatch(/postgres:16/);
    expect(caddy?.image).toMatch(/caddy:2/);
  });

  it('trusts exactly Caddy\'s address, which lies in the network, and Caddy proxies to the server', () => {
    const subnet = compose.networks.internal?.ipam.config[0]?.subnet ?? '';
    const caddyAddress = caddy?.networks?.internal?.ipv4_address;
    expect(reviews?.environment?.TRUST_PROXY).toBe(caddyAddress);
    expect(caddyAddress?.startsWith(subnet.replace(/0\/24$/, ''))).toBe(true);
    expect(caddy?.environment?.REVIEWS_UPSTREAM).toBe('reviews:4321');
    expect(reviews?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/reviews:\$\{POSTGRES_PASSWORD[^}]*\}@postgres:5432\/reviews$/);
  });

  it('mounts the repository\'s Caddy files and the server\'s volume at the Dockerfile\'s /data', () => {
    for (const volume of caddy?.volumes ?? []) {
      const [source] = volume.split(':');
      if (source?.startsWith('./')) expect(existsSync(path.join(PROJECT_ROOT, source)), source).toBe(true);
    }
    expect(caddy?.volumes).toEqual(expect.arrayContaining(['./deploy/Caddyfile:/etc/caddy/Caddyfile:ro', './deploy/reviews.caddy:/etc/caddy/reviews.caddy:ro']));
    expect(reviews?.volumes).toEqual(['reviews-data:/data']);
  });
});
