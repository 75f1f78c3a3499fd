/**
 * The Dockerfile built and run with podman, on a base image made from Debian's archive
 * (mmdebstrap into `podman import`, then the project's pinned Node 24 and npm added where
 * node:24-bookworm-slim has them): no registry of images is needed. The image is built
 * from the small fixture for the test's SITE_URL, started, asked for health with its own
 * HEALTHCHECK, and must serve /reviews.json byte for byte as the same build made here.
 *
 * Slow (minutes: the base image is downloaded from Debian's archive, `npm ci` runs in the
 * image): it runs only with CONTAINER_TESTS=1. On a machine where podman's default OCI
 * runtime (crun) cannot set resource limits or use hybrid cgroups, CONTAINER_RUNTIME
 * names another (e.g. /usr/sbin/runc).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { scratchDir } from '../support/https-subscriber.ts';
import { freePort } from '../support/tls-proxy.ts';

const DEBIAN_IMAGE = 'localhost/debian-archive:bookworm';
const BASE_IMAGE = 'localhost/node-local:24-bookworm-slim';
const IMAGE = 'localhost/reviews:test';
const NAME = `reviews-test-${process.pid}`;
const runtime = process.env.CONTAINER_RUNTIME ? ['--runtime', process.env.CONTAINER_RUNTIME] : [];
// Limits the container may set for itself: the host's own (a sandbox may forbid raising or reading others).
const ulimits = ['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=20000:20000'];
// The host's CA bundle (a proxy in between may re-sign the registry's certificate) and npm told to use it; not part of the image.
const hostCa = ['--volume', '/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro'];

function podman(args: string[], timeoutMs = 1_200_000): string {
  return execFileSync('podman', [...runtime, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
}
const exists = (image: string) => spawnSync('podman', ['image', 'exists', image]).status === 0;

/** node:24-bookworm-slim's layout from Debian's archive: Debian, then Node and npm in /usr/local. */
function makeBaseImage(dir: string): void {
  if (!exists(DEBIAN_IMAGE)) {
    const tar = path.join(dir, 'debian.tar');
    execFileSync('mmdebstrap', ['--variant=minbase', '--include=ca-certificates', 'bookworm', tar], { stdio: 'pipe', timeout: 1_200_000 });
    podman(['import', tar, DEBIAN_IMAGE]);
  }
  const context = path.join(dir, 'base');
  mkdirSync(context, { recursive: true });
  execFileSync('cp', [realpathSync(path.join(PROJECT_ROOT, 'node_modules/.bin/node')), path.join(context, 'node')]);
  const npm = path.resolve(path.dirname(realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim())), '..');
  execFileSync('cp', ['-a', npm, path.join(context, 'npm')]);
  writeFileSync(
    path.join(context, 'Containerfile'),
    `FROM ${DEBIAN_IMAGE}\nCOPY node /usr/local/bin/node\nCOPY npm /usr/local/lib/node_modules/npm\n` +
      'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && node -v && npm -v\n',
  );
  podman(['build', ...ulimits, '-t', BASE_IMAGE, context]);
}

describe.runIf(process.env.CONTAINER_TESTS === '1')('the container image', () => {
  afterAll(() => {
    spawnSync('podman', [...runtime, 'rm', '--force', '--time', '5', NAME]);
    spawnSync('podman', ['volume', 'rm', '--force', NAME]);
  });

  it('builds from the Dockerfile, runs as a non-root user, reports health and serves the build', async () => {
    const dir = scratchDir('container');
    if (!exists(BASE_IMAGE)) makeBaseImage(dir);
    const npmrc = path.join(dir, 'npmrc');
    writeFileSync(npmrc, 'cafile=/etc/ssl/certs/ca-certificates.crt\n');
    podman([
      'build', '--format', 'docker', ...ulimits, ...(existsSync('/etc/ssl/certs/ca-certificates.crt') ? [...hostCa, '--volume', `${npmrc}:/usr/local/etc/npmrc:ro`] : []),
      '--build-arg', `BASE_IMAGE=${BASE_IMAGE}`, '--build-arg', `SITE_URL=${TEST_SITE_URL}`, '--build-arg', 'CONTENT_DIR=test/fixtures/small',
      '-t', IMAGE, PROJECT_ROOT,
    ]);
    const port = await freePort();
    // The host's network, on a free loopback port: no port forwarding needed.
    podman(['run', '-d', ...ulimits, '--name', NAME, '--network', 'host', '-e', 'HOST=127.0.0.1', '-e', `PORT=${port}`, '-v', `${NAME}:/data`, IMAGE]);
    const deadline = Date.now() + 120_000;
    while (spawnSync('podman', [...runtime, 'healthcheck', 'run', NAME]).status !== 0) {
      if (Date.now() > deadline) throw new Error(`no health in 120 s:\n${spawnSync('podman', ['logs', NAME], { encoding: 'utf8' }).stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(podman(['exec', NAME, 'id', '-u']).trim()).toBe('10001');
    expect(podman(['exec', NAME, 'sh', '-c', 'touch /app/x 2>&1 || echo read-only']).trim()).toMatch(/read-only$/);
    const res = await rawRequest(`http://127.0.0.1:${port}/reviews.json`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(res.status).toBe(200);
    // Builds are deterministic: the image's build of the same content for the same site has the same bytes.
    expect(res.body.equals(readFileSync(path.join(inject('smallBuild'), 'current/client/reviews.json')))).toBe(true);
    expect(podman(['exec', NAME, 'sh', '-c', 'readlink /data/out/current && ls /data/hub']).trim()).toMatch(/^builds\/\S+\nhub\.sqlite/);
    podman(['stop', '--time', '20', NAME]);
    expect(podman(['inspect', '--format', '{{.State.ExitCode}}', NAME]).trim()).toBe('0');
  }, 1_800_000);
});
