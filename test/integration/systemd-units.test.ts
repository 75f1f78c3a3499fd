/**
 * The systemd units of deploy/ (reviews.service, reviews-deploy.service and its timer):
 * `systemd-analyze verify` accepts them without a warning, the server's unit keeps its
 * hardening with write access only to the folders reviews.env gives the hub's database
 * and the builds, and deploy/pull-and-build.sh builds exactly when a pull brought a
 * commit or nothing is built yet.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.ts';
import { scratchDir } from '../support/https-subscriber.ts';

const deploy = (name: string) => path.join(PROJECT_ROOT, 'deploy', name);
const UNITS = ['reviews.service', 'reviews-deploy.service', 'reviews-deploy.timer'];

/** `Key=value` lines of a unit or environment file, comments and sections left out (a key given twice keeps both). */
function settings(file: string): [string, string][] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Za-z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
}

describe('systemd units', () => {
  it('pass systemd-analyze verify with nothing to say', () => {
    const result = spawnSync('systemd-analyze', ['verify', ...UNITS.map(deploy)], { encoding: 'utf8' });
    if (result.error) throw new Error(`systemd-analyze cannot run: ${result.error.message} (apt-get install systemd; .ci/run does)`);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('run the server unprivileged, hardened, writing only the hub database\'s and the builds\' folders', () => {
    const unit = new Map(settings(deploy('reviews.service')));
    const env = new Map(settings(deploy('reviews.env')));
    expect(unit.get('User')).toBe('reviews');
    expect(unit.get('ExecStart')).toBe('/usr/bin/env npm run serve');
    const hardening: [string, string][] = [
      ['NoNewPrivileges', 'yes'], ['ProtectSystem', 'strict'], ['PrivateTmp', 'yes'], ['ProtectHome', 'yes'], ['Restart', 'on-failure'], ['CapabilityBoundingSet', ''],
    ];
    for (const [key, value] of hardening) expect(unit.get(key), key).toBe(value);
    expect(unit.get('ReadWritePaths')?.split(' ').sort()).toEqual([path.dirname(env.get('HUB_DB') ?? ''), env.get('OUT_DIR')].sort());
    expect(env.get('TRUST_PROXY')).toBe('127.0.0.1,::1');
    expect(env.get('HOST')).toBe('127.0.0.1');
  });
});

describe('deploy/pull-and-build.sh', () => {
  it('builds on the first run and after a pull that brought a commit, not otherwise', () => {
    const dir = scratchDir('pull-and-build');
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd, encoding: 'utf8' });
    const origin = path.join(dir, 'origin');
    mkdirSync(origin);
    git(origin, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(origin, 'a.md'), 'one\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'one');
    git(dir, 'clone', '-q', origin, 'checkout');
    const checkout = path.join(dir, 'checkout');
    // npm stands in for the build here (the build itself is tested elsewhere): it records that it ran.
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\necho "$*" >> ${path.join(dir, 'npm-calls')}\n`);
    chmodSync(path.join(bin, 'npm'), 0o755);
    const outDir = path.join(dir, 'out');
    const run = () =>
      execFileSync('/bin/sh', [deploy('pull-and-build.sh')], { cwd: checkout, encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}`, OUT_DIR: outDir, HOME: dir } });
    const calls = () => spawnSync('cat', [path.join(dir, 'npm-calls')], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

    expect(run()).toMatch(/^Building [0-9a-f]{40} \(was [0-9a-f]{40}\)\./);
    expect(calls()).toEqual(['run build']);
    mkdirSync(path.join(outDir, 'builds/x'), { recursive: true });
    execFileSync('ln', ['-s', 'builds/x', path.join(outDir, 'current')]);
    expect(run()).toMatch(/^Nothing new at [0-9a-f]{40}; the served build stays\./);
    expect(calls()).toEqual(['run build']);
    writeFileSync(path.join(origin, 'a.md'), 'two\n');
    git(origin, 'commit', '-qam', 'two');
    expect(run()).toMatch(/^Building /);
    expect(calls()).toEqual(['run build', 'run build']);
    expect(readFileSync(path.join(checkout, 'a.md'), 'utf8')).toBe('two\n');
  });
});
