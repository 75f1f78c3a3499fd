import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildDir, currentBuildId, switchToBuild } from '../../src/build/build-layout.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { startServer } from '../support/server.ts';

const scratch = mkdtempSync(path.join(PROJECT_ROOT, 'tmp', 'start-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(script: string, env: Record<string, string>, until: RegExp) {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, script)], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const done = new Promise<{ code: number | null; output: string }>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) resolve({ code: null, output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => resolve({ code, output }));
  });
  return { child, done };
}

describe('npm start', () => {
  it('builds an empty output folder, then serves it', async () => {
    const outDir = path.join(scratch, 'dist');
    const { child, done } = run('scripts/start.ts', {
      CONTENT_DIR: 'test/fixtures/small',
      OUT_DIR: outDir,
      SITE_URL: TEST_SITE_URL,
      PORT: '0',
    }, /Serving \S+ at (http:\S+)/);
    try {
      const { output } = await done;
      expect(output).toContain('Building');
      const url = /Serving \S+ at (http:\S+)/.exec(output)?.[1];
      expect(url).toBeDefined();
      const res = await rawRequest(`${url}reviews.json`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).reviews.map((r: { id: string }) => r.id)).toEqual(['b-two', 'c-three', 'a-one', 'e-five']);
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);

  it('a port held by a server of this service that serves the current build: says so, exit 0', async () => {
    const first = await startServer(inject('smallBuild'));
    try {
      const { done } = run('scripts/serve.ts', { OUT_DIR: inject('smallBuild'), SITE_URL: TEST_SITE_URL, PORT: String(first.port) }, /$^/);
      const { code, output } = await done;
      expect(code).toBe(0);
      const health = JSON.parse((await rawRequest(`${first.url}/api/health`)).text) as { build: { id: string } };
      expect(output).toContain(`A server of this service is already running at ${first.url}/ and now serves build ${health.build.id}, the current build`);
    } finally {
      await first.stop();
    }
  });

  it('a port held by a server of this OUT_DIR that will not switch for SITE_URL: names SITE_URL as the cause', async () => {
    // As after `npm start` on one port, then `PORT=4322 npm start`: the second build, made for
    // another SITE_URL, is current, and the first server keeps its own build.
    const outDir = path.join(scratch, 'two-sites');
    const source = realpathSync(path.join(inject('smallBuild'), 'current'));
    const served = currentBuildId(inject('smallBuild')) as string;
    const other = `${served}-other-site`;
    mkdirSync(path.join(outDir, 'builds'), { recursive: true });
    cpSync(source, buildDir(outDir, served), { recursive: true });
    cpSync(source, buildDir(outDir, other), { recursive: true });
    const manifest = path.join(buildDir(outDir, other), 'static-manifest.json');
    const otherSite = 'http://127.0.0.1:4322';
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replaceAll(TEST_SITE_URL, otherSite));
    switchToBuild(outDir, served);
    const first = await startServer(outDir);
    try {
      switchToBuild(outDir, other);
      const { done } = run('scripts/serve.ts', { OUT_DIR: outDir, SITE_URL: '', PORT: String(first.port) }, /$^/);
      const { code, output } = await done;
      expect(code).toBe(1);
      expect(output).toContain(`serves build ${served}, made for SITE_URL ${TEST_SITE_URL}; the current build ${other} was made for ${otherSite}`);
      expect(output).toContain(`SITE_URL=${TEST_SITE_URL} npm run build`);
      expect(output).not.toContain('another OUT_DIR');
    } finally {
      await first.stop();
    }
  }, 60_000);

  it('a port held by another program is a clear error and a non-zero exit', async () => {
    const other = createServer((_req, res) => res.end('not ours'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    try {
      const { done } = run('scripts/serve.ts', { OUT_DIR: inject('smallBuild'), SITE_URL: TEST_SITE_URL, PORT: String(port) }, /$^/);
      const { code, output } = await done;
      expect(code).toBe(1);
      expect(output).toContain(`port ${port} on 127.0.0.1 is already in use by another program; stop it or set PORT.`);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('serving a build takes its SITE_URL, and refuses another one', async () => {
    // Empty is the same as unset.
    const { child, done } = run('scripts/serve.ts', { OUT_DIR: inject('smallBuild'), PORT: '0', SITE_URL: '' }, /Serving \S+ at/);
    try {
      expect((await done).output).toContain(`Serving ${TEST_SITE_URL} at`);
    } finally {
      child.kill('SIGTERM');
    }
    const other = run('scripts/serve.ts', { OUT_DIR: inject('smallBuild'), PORT: '0', SITE_URL: 'https://elsewhere.example' }, /$^/);
    const { code, output } = await other.done;
    expect(code).toBe(1);
    expect(output).toContain(`SITE_URL is https://elsewhere.example, but`);
    expect(output).toContain(`was built for ${TEST_SITE_URL}`);
  });

  it('a bad setting names the variable', async () => {
    const { done } = run('scripts/serve.ts', { OUT_DIR: inject('smallBuild'), PORT: 'eighty' }, /$^/);
    const { code, output } = await done;
    expect(code).toBe(1);
    expect(output).toMatch(/PORT: /);
  });
});
