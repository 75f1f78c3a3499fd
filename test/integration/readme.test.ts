/**
 * The README's examples work as written: its example review passes the content check
 * against the sample business, and its MCP curl session, run by bash against a real
 * server, prints one line of JSON per answer.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const README = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');

/** The first fenced block of `language` after `heading`. */
function codeBlock(heading: string, language: string, after = ''): string {
  const start = README.indexOf(heading);
  expect(start, `README has ${heading}`).toBeGreaterThan(-1);
  const from = after ? README.indexOf(after, start) : start;
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(README.slice(from));
  if (!match) throw new Error(`no ${language} block after ${heading} ${after}`);
  return match[1] as string;
}

const node = path.join(PROJECT_ROOT, 'node_modules/.bin/node');

describe("the README's example review", () => {
  const example = codeBlock('## Adding a review', 'markdown');
  const contentDir = path.join(PROJECT_ROOT, 'tmp/test-content/readme-example');

  afterAll(() => rmSync(contentDir, { recursive: true, force: true }));

  const check = () => spawnSync(node, ['scripts/check-content.ts'], { cwd: PROJECT_ROOT, env: { ...process.env, CONTENT_DIR: contentDir }, encoding: 'utf8' });

  it('passes `npm run check:content` beside the sample content', () => {
    rmSync(contentDir, { recursive: true, force: true });
    cpSync(path.join(PROJECT_ROOT, 'content'), contentDir, { recursive: true });
    const before = check();
    writeFileSync(path.join(contentDir, 'reviews', 'readme-example-jordan-m.md'), example);
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // One more review than the sample content, and it was read.
    const count = (output: string) => Number(/Content OK: (\d+) reviews/.exec(output)?.[1]);
    expect(count(run.stdout)).toBe(count(before.stdout) + 1);
  });

  it('uses ids that the sample business.json has (so the check above is not vacuous)', () => {
    const business = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'content/business.json'), 'utf8')) as Record<string, { id: string }[]>;
    const tags = (field: string) => /\[(.*)\]/.exec(new RegExp(`^${field}:(.*)$`, 'm').exec(example)?.[1] ?? '')?.[1]?.split(',').map((id) => id.trim()) ?? [];
    expect(tags('technicians').length).toBeGreaterThan(0);
    for (const id of tags('technicians')) expect(business.technicians?.map((t) => t.id)).toContain(id);
    for (const id of tags('services')) expect(business.services?.map((s) => s.id)).toContain(id);
  });
});

describe("the README's examples against a running server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(inject('smallBuild'));
  });
  afterAll(() => server?.stop());

  it("the 400 example is the server's answer to ?min_rate=… (its issues exactly; the message elided with …)", async () => {
    const shown = codeBlock('Bad input is a 400', 'json');
    const example = JSON.parse(shown.replace(/\n\s*/g, '')) as { error: string; message: string; issues: unknown[] };
    const res = await rawRequest(`${server.url}/api/reviews/search?min_rate=4`);
    const answer = JSON.parse(res.text) as typeof example;
    expect(res.status).toBe(400);
    expect(answer.error).toBe(example.error);
    expect(answer.issues).toEqual(example.issues);
    expect(answer.message.startsWith(example.message.replace(/…$/, ''))).toBe(true);
  });

  it('prints one line of JSON per answer (the tools/call answer included)', () => {
    const script = codeBlock('## MCP for AI agents', 'sh', '**curl**');
    expect(script).toContain('MCP=http://127.0.0.1:4321/mcp');
    const output = execFileSync('bash', ['-euo', 'pipefail', '-c', script.replace('MCP=http://127.0.0.1:4321/mcp', `MCP=${server.url}/mcp`)], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    const lines = output.split('\n').filter((line) => line !== '');
    // tools/list, tools/call, resources/read; the notification's 202 prints nothing.
    expect(lines).toHaveLength(3);
    const answers = lines.map((line) => JSON.parse(line) as { id: number; result?: { structuredContent?: { reviews?: unknown[] } } });
    expect(answers.map((a) => a.id)).toEqual([2, 3, 4]);
    expect(answers[1]?.result?.structuredContent?.reviews?.length).toBeGreaterThan(0);
  });
});
