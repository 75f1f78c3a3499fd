/**
 * Outside judges of the MCP endpoint, run against the built server: the official
 * conformance suite (@modelcontextprotocol/conformance) and the Inspector's CLI
 * with --strict (tool-schema portability). Both run offline from node_modules.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const run = promisify(execFile);
const CONFORMANCE = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const INSPECTOR = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

let server: RunningServer;
let outputDir: string;
beforeAll(async () => {
  // No MCP_SESSION_SECRET: the server signs with a random key and says so once.
  server = await startServer(inject('smallBuild'));
  outputDir = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(outputDir, { recursive: true, force: true });
});

/** Runs one scenario and returns the checks it wrote (the JSON report, not the coloured console). */
async function conformance(scenario: string, specVersion: string): Promise<{ code: number; checks: Check[]; log: string }> {
  const dir = path.join(outputDir, `${scenario}-${specVersion}`);
  const args = [CONFORMANCE, 'server', '--url', `${server.url}/mcp`, '--scenario', scenario, '--spec-version', specVersion, '-o', dir];
  const result = await run(process.execPath, args, { cwd: PROJECT_ROOT, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, log: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, log: `${error.stdout}${error.stderr}` }),
  );
  const checks = readdirSync(dir).flatMap((run) => JSON.parse(readFileSync(path.join(dir, run, 'checks.json'), 'utf8')) as Check[]);
  return { ...result, checks };
}

describe('official MCP conformance suite', () => {
  it.each([
    ['server-initialize', '2025-06-18'],
    ['server-initialize', '2025-11-25'],
    ['ping', '2025-11-25'],
    ['tools-list', '2025-06-18'],
    ['tools-list', '2025-11-25'],
    ['resources-list', '2025-11-25'],
    ['dns-rebinding-protection', '2025-11-25'],
    ['server-session-lifecycle', '2025-11-25'],
  ])('%s (%s) passes with no failure or warning', async (scenario, specVersion) => {
    const { code, checks, log } = await conformance(scenario, specVersion);
    const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    expect(bad, log).toEqual([]);
    expect(checks.some((check) => check.status === 'SUCCESS'), log).toBe(true);
    expect(code, log).toBe(0);
  });

  it('the session lifecycle checks what we built: the initialized notification on the issued id; DELETE refused with 405', async () => {
    const { checks } = await conformance('server-session-lifecycle', '2025-06-18');
    expect(Object.fromEntries(checks.map((check) => [check.id, check.status]))).toMatchObject({
      'server-session-initialized-accepted': 'SUCCESS',
      'server-session-delete-accepted': 'SKIPPED',
    });
  });

  it('the server warned once that session ids are signed with a per-process key', () => {
    expect(server.output().match(/MCP_SESSION_SECRET is not set/g)).toHaveLength(1);
  });
});

describe('MCP Inspector CLI', () => {
  // The Inspector keeps a catalog and storage under HOME: give it a throwaway one.
  const inspector = (...args: string[]) =>
    run(process.execPath, [INSPECTOR, '--cli', `${server.url}/mcp`, ...args], {
      cwd: PROJECT_ROOT,
      timeout: 60_000,
      env: { ...process.env, HOME: outputDir, MCP_CATALOG_PATH: path.join(outputDir, 'inspector-catalog.json') },
    });

  it('lists the tools with --strict and reports no schema problem', async () => {
    const { stdout, stderr } = await inspector('--method', 'tools/list', '--strict');
    expect(stderr).not.toMatch(/Warning|Error/);
    const { tools } = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual(['get_business', 'search_reviews', 'get_reviews_since', 'get_review', 'get_insights']);
  });

  it('calls a tool', async () => {
    const { stdout } = await inspector('--method', 'tools/call', '--tool-name', 'search_reviews', '--tool-arg', 'mentions_service=gutters');
    expect(JSON.parse(stdout).structuredContent).toMatchObject({ total: 1, reviews: [{ id: 'b-two' }] });
  });
});
