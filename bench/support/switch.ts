/**
 * One switch of a running server under load, as a user sees it: a build or a
 * rollback runs (a process that renames OUT_DIR/current and exits), and from its
 * exit on the server is asked, every 20 ms, whether it answers with the new state.
 * The figures: how long after the exit it first does; the longest request of the
 * load, the completed requests of each second, and the server's peak resident
 * memory, all in the window from the rename (or the exit, if the rename was not
 * seen first) to 5 s after the new state showed.
 *
 * The full load runs for a few seconds before the process starts (the figure to
 * compare the seconds of the window with) and again from the moment the rename is
 * seen, 10 ms at most after it and before the server, which looks every 250 ms,
 * starts loading the build. While the process runs before the rename, only a light
 * load does: at 100,000 reviews a build beside a saturating load took 877 s instead
 * of 215 s on a busy 2-core machine, for figures the light load gives as well.
 */
import { readlinkSync } from 'node:fs';
import path from 'node:path';
import type { TimedRun } from './build-timing.ts';
import { sampleRss } from './memory.ts';
import type { BenchServer } from './processes.ts';
import { startSteadyLoad, type SteadyLoad, type SteadyLoadOptions } from './steady-load.ts';
import { against, fmt, markdownTable } from './table.ts';

export interface SwitchFigures {
  run: TimedRun;
  /** Of the full load before the process started. */
  rpsBefore: number;
  /** From the process's exit to the first answer with the new state; undefined if none within VISIBLE_LIMIT_MS. */
  visibleMs?: number;
  /** How long before the exit `current` was seen to change. */
  renameBeforeExitMs?: number;
  windowSeconds: number;
  longestWaitMs: number;
  /** Completed requests of each whole second of the window. */
  perSecond: number[];
  peakRssMiB?: number;
  /** Set when the server died during the switch. */
  serverEnded?: string;
}

export interface SwitchOptions {
  server: BenchServer;
  outDir: string;
  /** The load of the window; `light` runs while the process does, until the rename. */
  load: SteadyLoadOptions;
  light: SteadyLoadOptions;
  /** Starts the build or rollback. */
  change(): Promise<TimedRun>;
  /** A GET whose answer tells the new state from the old one, and that test. */
  probe: { path: string; isNew(body: string): boolean };
}

/** A switch that takes longer is reported as not visible, so a stuck server cannot hang the bench. */
const VISIBLE_LIMIT_MS = 60_000;
const PROBE_EVERY_MS = 20;
/** Probes waiting at once at most: a stalled server must not be buried under them. */
const PROBES_IN_FLIGHT = 10;
const AFTER_VISIBLE_MS = 5_000;
const LOAD_BEFORE_MS = 3_000;
/** Requests still waiting at the window's end get this long to complete and count. */
const STRAGGLERS_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readCurrent(outDir: string): string | undefined {
  try {
    return readlinkSync(path.join(outDir, 'current'));
  } catch {
    return undefined;
  }
}

/** Watches OUT_DIR/current every 10 ms; the time it first changed, if it did. */
function watchRename(outDir: string, onChange: () => void): { changedAt(): number | undefined; stop(): void } {
  const before = readCurrent(outDir);
  let changedAt: number | undefined;
  const timer = setInterval(() => {
    if (changedAt !== undefined || readCurrent(outDir) === before) return;
    changedAt = performance.now();
    onChange();
  }, 10);
  return { changedAt: () => changedAt, stop: () => clearInterval(timer) };
}

/** Requests per second of a recorded load over its last `ms`. */
function recentRps(load: SteadyLoad, ms: number): number {
  const since = performance.now() - ms;
  return load.responses.ends.filter((end) => end >= since).length / (ms / 1000);
}

/** Probes from `since` until one answer shows the new state; the time that answer came, or undefined. */
async function firstNewAnswer(server: BenchServer, probe: SwitchOptions['probe'], since: number): Promise<number | undefined> {
  let seenAt: number | undefined;
  let inFlight = 0;
  const ask = async () => {
    inFlight++;
    try {
      const res = await fetch(`${server.url}${probe.path}`, { signal: AbortSignal.timeout(VISIBLE_LIMIT_MS) });
      const body = await res.text();
      if (res.ok && probe.isNew(body)) seenAt = Math.min(seenAt ?? Infinity, performance.now());
    } catch {
      // A refused or timed-out probe says nothing new; a dead server is seen by `ended`.
    } finally {
      inFlight--;
    }
  };
  while (seenAt === undefined && performance.now() - since < VISIBLE_LIMIT_MS && !server.ended()) {
    if (inFlight < PROBES_IN_FLIGHT) void ask();
    await sleep(PROBE_EVERY_MS);
  }
  while (inFlight > 0 && seenAt === undefined && !server.ended()) await sleep(PROBE_EVERY_MS);
  return seenAt;
}

export async function measureSwitch({ server, outDir, load: loadOptions, light: lightOptions, change, probe }: SwitchOptions): Promise<SwitchFigures> {
  const before = startSteadyLoad(server.url, { ...loadOptions, record: true });
  await sleep(LOAD_BEFORE_MS);
  const rpsBefore = recentRps(before, LOAD_BEFORE_MS - 1_000);
  await before.finish();

  const light = startSteadyLoad(server.url, lightOptions);
  let load: SteadyLoad | undefined;
  const loadUp = () => {
    load ??= startSteadyLoad(server.url, { ...loadOptions, record: true });
    void light.finish();
  };
  const rss = sampleRss(() => server.rssMiB());
  const rename = watchRename(outDir, loadUp);
  try {
    const run = await change();
    loadUp();
    const visibleAt = await firstNewAnswer(server, probe, run.exitedAt);
    const renamedAt = rename.changedAt();
    const from = Math.min(renamedAt ?? run.exitedAt, run.exitedAt);
    // A dead server's window ends now: nothing more will come.
    const to = server.ended() ? performance.now() : (visibleAt ?? run.exitedAt + VISIBLE_LIMIT_MS) + AFTER_VISIBLE_MS;
    await sleep(Math.max(0, to + STRAGGLERS_MS - performance.now()));

    const { ends, latencies } = (load as SteadyLoad).responses;
    const perSecond = Array.from({ length: Math.floor((to - from) / 1000) }, () => 0);
    let longestWaitMs = 0;
    for (const [i, end] of ends.entries()) {
      const latency = latencies[i] as number;
      // Every request that was waiting at some moment of the window.
      if (end < from || end - latency > to) continue;
      longestWaitMs = Math.max(longestWaitMs, latency);
      const second = Math.floor((end - from) / 1000);
      if (second < perSecond.length) perSecond[second] = (perSecond[second] as number) + 1;
    }
    const figures: SwitchFigures = { run, rpsBefore, windowSeconds: (to - from) / 1000, longestWaitMs, perSecond };
    if (visibleAt !== undefined) figures.visibleMs = visibleAt - run.exitedAt;
    if (renamedAt !== undefined && renamedAt < run.exitedAt) figures.renameBeforeExitMs = run.exitedAt - renamedAt;
    const peak = rss.peak(from, to);
    if (peak !== undefined) figures.peakRssMiB = peak;
    const ended = server.ended();
    if (ended !== undefined) figures.serverEnded = ended;
    return figures;
  } finally {
    rss.stop();
    rename.stop();
    await Promise.all([light.finish(), load?.finish()]);
  }
}

/** Issue 20's goals for a switch under load. */
const VISIBLE_GOAL_MS = 2_000;
const WAIT_GOAL_MS = 250;
const RSS_GOAL_RATIO = 1.5;

/** One column per switch (the build, the rollback), figures against their goals; then each one's seconds. */
export function switchReport(switches: readonly [string, SwitchFigures][], idleRssMiB: number | undefined): string {
  const column = (s: SwitchFigures) => {
    const zeros = s.perSecond.filter((n) => n === 0).length;
    const ratio = s.peakRssMiB !== undefined && idleRssMiB ? s.peakRssMiB / idleRssMiB : undefined;
    return [
      `${fmt(s.rpsBefore)} req/s`,
      `${fmt(s.run.seconds, 1)} s`,
      s.renameBeforeExitMs === undefined ? 'not seen before' : `${fmt(s.renameBeforeExitMs)} ms before`,
      s.visibleMs === undefined ? `not within ${VISIBLE_LIMIT_MS / 1000} s (missed)` : against(`${fmt(s.visibleMs)} ms`, `≤ ${fmt(VISIBLE_GOAL_MS)} ms`, s.visibleMs <= VISIBLE_GOAL_MS),
      `${fmt(s.windowSeconds, 1)} s`,
      against(`${fmt(s.longestWaitMs)} ms`, `≤ ${WAIT_GOAL_MS} ms`, s.longestWaitMs <= WAIT_GOAL_MS),
      against(`${zeros} of ${s.perSecond.length}`, '0', zeros === 0),
      s.peakRssMiB === undefined || ratio === undefined ? '?' : against(`${fmt(s.peakRssMiB)} MiB, ${fmt(ratio, 2)}x idle`, `< ${RSS_GOAL_RATIO}x`, ratio < RSS_GOAL_RATIO),
    ];
  };
  const names = [
    'the load before the process',
    'process, spawn to exit',
    '`current` renamed',
    'new state answered, after the exit',
    'window: rename to answered + 5 s',
    'longest wait in the window',
    'seconds without a completed request',
    'server peak RSS in the window',
  ];
  const columns = switches.map(([, s]) => column(s));
  const lines = names.map((name, i) => [name, ...columns.map((c) => c[i] as string)]);
  const report = [markdownTable(['figure', ...switches.map(([name]) => name)], lines), ''];
  for (const [name, s] of switches) {
    report.push(`Completed requests per second of the window, ${name}: ${s.perSecond.map((n) => fmt(n)).join(' ')}`);
    if (s.serverEnded) report.push(`The server died during the ${name}: ${s.serverEnded}`);
  }
  return report.join('\n');
}
