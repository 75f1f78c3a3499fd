import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  completeBuilds, currentBuildId, newBuildId, pinBuild, previousBuild, pruneBuilds, servedBuildDir, switchToBuild,
} from '../../../src/build/build-layout.ts';
import { lockBuilds } from '../../../src/build/build-lock.ts';

let outDir: string;
beforeEach(() => {
  outDir = mkdtempSync(path.join(tmpdir(), 'layout-'));
});
afterEach(() => rmSync(outDir, { recursive: true, force: true }));

/** A build directory as buildSite leaves it; `complete: false` is one killed before its stamp. */
function fakeBuild(id: string, complete = true): void {
  const dir = path.join(outDir, 'builds', id);
  mkdirSync(path.join(dir, 'client'), { recursive: true });
  writeFileSync(path.join(dir, 'client', 'reviews.json'), `{"build":"${id}"}`);
  writeFileSync(path.join(dir, 'static-manifest.json'), '{}');
  if (complete) writeFileSync(path.join(dir, 'build-stamp.json'), '{}');
}

describe('build layout', () => {
  it('build ids sort by time', () => {
    const a = newBuildId(new Date('2026-11-25T09:59:59.999Z'), 7);
    const b = newBuildId(new Date('2026-11-25T10:00:00.000Z'), 7);
    expect(a).toBe('20261125-095959-999-7');
    expect([b, a].sort()).toEqual([a, b]);
  });

  it('a switch points current and the stable paths at the build, replacing a flat build', () => {
    mkdirSync(path.join(outDir, 'client'), { recursive: true });
    writeFileSync(path.join(outDir, 'client', 'reviews.json'), 'flat');
    expect(servedBuildDir(outDir)).toEqual({ id: 'flat', dir: outDir });
    fakeBuild('b1');
    switchToBuild(outDir, 'b1');
    expect(readlinkSync(path.join(outDir, 'current'))).toBe(path.join('builds', 'b1'));
    expect(readFileSync(path.join(outDir, 'client', 'reviews.json'), 'utf8')).toBe('{"build":"b1"}');
    fakeBuild('b2');
    switchToBuild(outDir, 'b2');
    expect(readFileSync(path.join(outDir, 'client', 'reviews.json'), 'utf8')).toBe('{"build":"b2"}');
    expect(servedBuildDir(outDir)).toEqual({ id: 'b2', dir: path.join(outDir, 'builds', 'b2') });
  });

  it('rollback target is the newest complete build before the current one', () => {
    for (const id of ['b1', 'b2', 'b3']) fakeBuild(id);
    fakeBuild('b25', false);
    switchToBuild(outDir, 'b3');
    expect(previousBuild(outDir)).toBe('b2');
    switchToBuild(outDir, 'b2');
    expect(previousBuild(outDir)).toBe('b1');
    switchToBuild(outDir, 'b1');
    expect(previousBuild(outDir)).toBeUndefined();
  });

  it('pruning keeps the newest three, the current and pinned builds, and drops unfinished ones', () => {
    for (const id of ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']) fakeBuild(id);
    fakeBuild('b7', false);
    switchToBuild(outDir, 'b1');
    const unpin = pinBuild(outDir, 'b2');
    // A pin of a process that is gone does not count.
    writeFileSync(path.join(outDir, 'pins', '999999999'), 'b3\n');
    expect(pruneBuilds(outDir).sort()).toEqual(['b3', 'b7']);
    expect(completeBuilds(outDir)).toEqual(['b1', 'b2', 'b4', 'b5', 'b6']);
    expect(existsSync(path.join(outDir, 'pins', '999999999'))).toBe(false);
    unpin();
    expect(pruneBuilds(outDir)).toEqual(['b2']);
    expect(currentBuildId(outDir)).toBe('b1');
  });

  it('one build at a time: a live holder refuses, a dead one is taken over', () => {
    writeFileSync(path.join(outDir, 'build.lock'), `${process.ppid}\n`);
    expect(() => lockBuilds(outDir)).toThrow(`Another build (pid ${process.ppid}) is writing into ${outDir}`);
    writeFileSync(path.join(outDir, 'build.lock'), '999999999\n');
    const release = lockBuilds(outDir);
    expect(readFileSync(path.join(outDir, 'build.lock'), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(path.join(outDir, 'build.lock'))).toBe(false);
  });
});
