/** Load measurements with autocannon: requests per second and latency percentiles. */
import autocannon from 'autocannon';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: should be 0. */
  failures: number;
  /**
   * The server's CPU time per request, in microseconds, when its CPU use can be read:
   * what a request costs the server whatever share of the machine the load generator
   * (on the same 2 cores) happens to take, so steadier than requests per second.
   */
  cpuMicros?: number;
}

export interface LoadOptions {
  connections?: number;
  seconds?: number;
  /** CPU seconds so far of the server answering, to give cpuMicros; see BenchServer.cpuSeconds. */
  serverCpu?: ServerCpu;
}

export type ServerCpu = () => number | undefined;

/** A URL to GET, or a request to send (the MCP bench POSTs JSON-RPC; a GET may carry headers). */
export type Target = string | { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };

export async function measure(target: Target, { connections = 50, seconds = 5, serverCpu }: LoadOptions = {}): Promise<Load> {
  const request = typeof target === 'string' ? { url: target } : target;
  const cpuBefore = serverCpu?.();
  const result = await autocannon({ ...request, connections, duration: seconds });
  const cpuAfter = serverCpu?.();
  const load: Load = {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
  if (cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0) {
    load.cpuMicros = ((cpuAfter - cpuBefore) * 1e6) / result.requests.total;
  }
  return load;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * Targets measured in alternating rounds after a warm-up, each figure the
 * median of its rounds: on a shared machine, load from elsewhere then weighs on
 * every side alike instead of on whichever ran at the wrong moment.
 */
export async function compare<const T extends readonly Target[]>(
  urls: T,
  { rounds = 3, serverCpu, ...options }: Omit<LoadOptions, 'serverCpu'> & { rounds?: number; serverCpu?: ServerCpu | readonly (ServerCpu | undefined)[] } = {},
): Promise<{ [K in keyof T]: Load }> {
  // One server answering every target, or each target its own.
  const optionsOf = (i: number): LoadOptions => ({ ...options, serverCpu: Array.isArray(serverCpu) ? serverCpu[i] : (serverCpu as ServerCpu | undefined) });
  for (const url of urls) await measure(url, { ...options, seconds: 1 });
  const runs: Load[][] = urls.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, url] of urls.entries()) runs[i]?.push(await measure(url, optionsOf(i)));
  }
  const summary = (loads: Load[]): Load => {
    const load: Load = {
      rps: median(loads.map((l) => l.rps)),
      p50: median(loads.map((l) => l.p50)),
      p99: median(loads.map((l) => l.p99)),
      failures: loads.reduce((sum, l) => sum + l.failures, 0),
    };
    const cpu = loads.flatMap((l) => (l.cpuMicros === undefined ? [] : [l.cpuMicros]));
    if (cpu.length === loads.length) load.cpuMicros = median(cpu);
    return load;
  };
  return runs.map(summary) as { [K in keyof T]: Load };
}
