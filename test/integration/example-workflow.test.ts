/**
 * docs/examples/publish-workflow.yml works as written: it parses as YAML (as GitHub
 * Actions reads it), and the shell steps that need nothing remote run here with the
 * job's environment, in order, on a fixture's content.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.ts';

const FILE = path.join(PROJECT_ROOT, 'docs/examples/publish-workflow.yml');
const scratch = mkdtempSync(path.join(PROJECT_ROOT, 'tmp', 'workflow-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: unknown;
  jobs: Record<string, { 'runs-on': string; env?: Record<string, string>; steps: Step[] }>;
}

/**
 * Why a step cannot run here, or undefined when it can: the package registry, the
 * live site and its hub are remote; `npm test` is this suite itself.
 */
function remoteReason(run: string): string | undefined {
  if (/\bnpm ci\b/.test(run)) return 'installs from the registry';
  if (/\bnpm test\b/.test(run)) return 'is the test suite itself';
  if (/--against\b/.test(run)) return 'reads the live site';
  if (/\bnpm run publish\b(?!.*--dry-run)/.test(run)) return "pings the live site's hub";
  const active = run.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
  if (active.some((line) => /\b(rsync|ssh|scp|curl)\b/.test(line))) return 'reaches a server';
  return undefined;
}

describe('docs/examples/publish-workflow.yml', () => {
  const doc = parseDocument(readFileSync(FILE, 'utf8'), { prettyErrors: true });

  it('is valid YAML with a job of steps, each named and either running a command or using an action', () => {
    expect(doc.errors.map((e) => e.message)).toEqual([]);
    expect(doc.warnings.map((e) => e.message)).toEqual([]);
    const workflow = doc.toJS() as Workflow;
    expect(workflow.name).toBeTruthy();
    const jobs = Object.values(workflow.jobs);
    expect(jobs).toHaveLength(1);
    for (const step of jobs[0]?.steps ?? []) {
      expect(Boolean(step.run) !== Boolean(step.uses), JSON.stringify(step)).toBe(true);
      if (step.uses) expect(step.uses).toMatch(/^[\w-]+\/[\w/-]+@v\d+$/);
      else expect(step.name, step.run).toBeTruthy();
    }
  });

  it('runs its local shell steps, in order, with the job environment', () => {
    const workflow = doc.toJS() as Workflow;
    const job = Object.values(workflow.jobs)[0] as Workflow['jobs'][string];
    const outDir = path.join(scratch, 'dist');
    const env = {
      ...process.env,
      ...job.env,
      // The fixture's content, and a scratch output folder, instead of the repository's.
      CONTENT_DIR: path.join(PROJECT_ROOT, 'test/fixtures/small'),
      OUT_DIR: outDir,
      PATH: `${path.join(PROJECT_ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
    };
    const ran: string[] = [];
    const skipped: string[] = [];
    for (const step of job.steps) {
      if (!step.run) continue;
      const reason = remoteReason(step.run);
      if (reason) {
        skipped.push(`${step.name}: ${reason}`);
        continue;
      }
      const result = spawnSync('bash', ['-eo', 'pipefail', '-c', step.run], { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: 240_000 });
      expect(result.status, `${step.name}\n${result.stdout}\n${result.stderr}`).toBe(0);
      ran.push(step.name as string);
    }
    // What ran is what the workflow needs to get right here: the build of the site.
    expect(ran.some((name) => /build/i.test(name))).toBe(true);
    expect(existsSync(path.join(outDir, 'client/reviews.json'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(outDir, 'client/reviews.json'), 'utf8')).business.url).toBeTruthy();
    expect(skipped.length).toBeGreaterThan(0);
  }, 300_000);
});
