/**
 * A load that runs until stopped (autocannon), for what happens to a server while
 * something else goes on (a switch, a build): unlike `measure`, it can keep each
 * response's end time and latency, to find the longest wait and the seconds without
 * a completed request in any window of it.
 */
import autocannon from 'autocannon';

export interface SteadyLoadOptions {
  connections: number;
  /** Paths asked in turn by each connection, with optional headers. */
  requests: { path: string; headers?: Record<string, string> }[];
  /** Requests per second over all connections at most; as fast as answered when unset. */
  overallRate?: number;
  /** Keep every response's end and latency (see `responses`). */
  record?: boolean;
}

export interface SteadyLoad {
  /** performance.now() at each response's end, and its latency in ms, in order; empty unless `record`. */
  readonly responses: { ends: number[]; latencies: number[] };
  /** Stops the load (once, however often called). */
  finish(): Promise<{ rps: number; failures: number }>;
}

/** A stalled server must show as long waits, not as autocannon's timeouts (10 s by default) and reconnections. */
const TIMEOUT_SECONDS = 120;

export function startSteadyLoad(url: string, { record = false, ...options }: SteadyLoadOptions): SteadyLoad {
  const started = performance.now();
  let finished: (result: autocannon.Result) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  const instance = autocannon({ url, ...options, duration: 3600, timeout: TIMEOUT_SECONDS }, (_error, result) => finished(result));
  const responses = { ends: [] as number[], latencies: [] as number[] };
  if (record) {
    instance.on('response', (_client, _status, _bytes, latency) => {
      responses.ends.push(performance.now());
      responses.latencies.push(latency);
    });
  }
  let summary: Promise<{ rps: number; failures: number }> | undefined;
  return {
    responses,
    finish() {
      summary ??= (async () => {
        instance.stop();
        const result = await done;
        return { rps: result.requests.total / ((performance.now() - started) / 1000), failures: result.non2xx + result.errors + result.timeouts };
      })();
      return summary;
    },
  };
}
