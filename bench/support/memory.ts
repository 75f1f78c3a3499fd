/** Resident memory of benchmarked processes, read from /proc (Linux only). */
import { readdirSync, readFileSync } from 'node:fs';

/** A memory figure of /proc/<pid>/status, in MiB; undefined once the process is gone or off Linux. */
export function statusMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process and all its descendants (a build runs Astro as a child), in MiB. */
export function treeRssMiB(pid: number): number {
  let total = statusMiB(pid, 'VmRSS') ?? 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) total += treeRssMiB(Number(child));
    }
  } catch {
    // The process ended between two reads.
  }
  return total;
}

export interface RssSampler {
  /** The highest sample taken between two performance.now() times (all of them by default). */
  peak(from?: number, to?: number): number | undefined;
  stop(): void;
}

/**
 * Samples `read` every 50 ms: peaks shorter than that are missed, which is why
 * VmHWM is the better figure when a process's whole life is wanted; this one gives
 * the peak of a window.
 */
export function sampleRss(read: () => number | undefined, intervalMs = 50): RssSampler {
  const times: number[] = [];
  const values: number[] = [];
  const take = () => {
    const value = read();
    if (value === undefined) return;
    times.push(performance.now());
    values.push(value);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    peak(from = 0, to = Infinity) {
      let peak: number | undefined;
      for (const [i, time] of times.entries()) {
        if (time >= from && time <= to) peak = Math.max(peak ?? 0, values[i] as number);
      }
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
