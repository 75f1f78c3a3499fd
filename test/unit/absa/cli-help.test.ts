import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const script = fileURLToPath(new URL('../../../scripts/analyze.ts', import.meta.url));
const run = (input: string, args: string[] = []) => spawnSync(process.execPath, [script, ...args], { input, cwd: root, encoding: 'utf8' });

describe('npm run analyze for a first-time user', () => {
  it('--help explains the input and the output, and its example is what the analyzer prints', () => {
    const help = run('', ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run --silent analyze/);
    expect(help.stdout).toContain('--eval');
    expect(help.stdout).toContain('gets an error object in its place');
    // The example pair in the help: an input line and the output line for it.
    const [input, output] = help.stdout.split('\n').filter((line) => line.startsWith('  {')).map((line) => line.trim());
    expect(input).toBeDefined();
    expect(run(`${input}\n`).stdout.trim()).toBe(output);
  });

  it('plain text gets a message that shows a correct line, an error object in its place, and exit status 2', () => {
    const r = run('They cleaned up every nail.\n');
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: null, line: 1, error: expect.stringMatching(/^line 1 is plain text, not JSON/) });
    expect(r.stderr).toContain('line 1 is plain text, not JSON');
    const shown = /\n {2}(\{.*\})\n/.exec(r.stderr)?.[1] as string;
    // The line it shows is itself accepted.
    expect(run(`${shown}\n`).status).toBe(0);
  });

  it('malformed JSON still names the line, and an unknown flag points to --help', () => {
    expect(run('{"id":1,"text":"ok"\n').stderr).toMatch(/line 1: malformed JSON .*a line looks like \{"id":1/);
    expect(run('', ['--verbose']).stderr).toContain('--help');
  });
});
