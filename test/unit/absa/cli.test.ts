import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const script = fileURLToPath(new URL('../../../scripts/analyze.ts', import.meta.url));

function run(input: string, args: string[] = []): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...args], { input, cwd: root, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/analyze.ts', () => {
  it('writes one JSON line per input line (blank lines skipped)', () => {
    const input = [
      JSON.stringify({ id: 'a', text: 'Great roof but they left a mess.', extra: 1 }),
      '',
      JSON.stringify({ id: 7, text: 'Highly recommend!' }),
      '   ',
    ].join('\n');
    const r = run(input);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual([
      {
        id: 'a',
        labels: [
          { aspect: 'workmanship', sentiment: 'positive' },
          { aspect: 'cleanup', sentiment: 'negative' },
        ],
        overall: 'negative',
      },
      { id: 7, labels: [], overall: 'positive' },
    ]);
  });
  it('names the line number of malformed JSON, answers the good lines all the same, and exits 2', () => {
    const r = run(`${JSON.stringify({ id: 1, text: 'Great roof.' })}\n\n{"id": 2, "text": oops}\nnot json\n${JSON.stringify({ id: 5, text: 'They left nails everywhere.' })}\n`);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('analyze:')).map((l) => /^analyze: line (\d+)/.exec(l)?.[1])).toEqual(['3', '4']);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.id, l.line ?? null, 'error' in l])).toEqual([[1, null, false], [null, 3, true], [null, 4, true], [5, null, false]]);
    expect(lines[0]).toEqual({ id: 1, labels: [{ aspect: 'workmanship', sentiment: 'positive' }], overall: 'positive' });
    expect(lines[2]?.error).toMatch(/^line 4 is plain text, not JSON\. .*\{"id":1,"text":"They cleaned up every nail\."\}/);
    expect(lines[4 - 1]).toEqual({ id: 5, labels: [{ aspect: 'cleanup', sentiment: 'negative' }], overall: 'negative' });
  });
  it('rejects a line without text, keeping its id in the error object', () => {
    const r = run('{"id": 1}\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/line 1: missing string field "text"/);
    expect(JSON.parse(r.stdout)).toEqual({ id: 1, line: 1, error: 'line 1: missing string field "text"' });
  });
  it('--eval prints only the report', () => {
    const input = [
      { id: 1, text: 'Great roof but they left a mess.', labels: [{ aspect: 'workmanship', sentiment: 'positive' }, { aspect: 'cleanup', sentiment: 'negative' }], overall: 'negative' },
      { id: 2, text: 'The adjuster came on Tuesday.', labels: [{ aspect: 'insurance', sentiment: 'neutral' }], overall: 'neutral' },
    ]
      .map((x) => JSON.stringify(x))
      .join('\n');
    const r = run(input, ['--eval']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^sentences\s+2$/m);
    expect(r.stdout).toMatch(/triples .*F1 1\.000/);
    expect(r.stdout).toMatch(/aspects .*F1 1\.000/);
    expect(r.stdout).toMatch(/overall accuracy\s+1\.000/);
    expect(r.stdout).toMatch(/sentences\/second\s+\d+/);
    expect(r.stdout).not.toMatch(/"labels"/);
  });
  it('--eval needs gold labels, reports every bad line, and prints no report', () => {
    const r = run(`${JSON.stringify({ id: 1, text: 'hi' })}\n${JSON.stringify({ id: 2, text: 'hi', labels: [] })}`, ['--eval']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/line 1: --eval needs a "labels" array/);
    expect(r.stderr).toMatch(/line 2: --eval needs an "overall" string/);
    expect(r.stdout).toBe('');
  });
});
