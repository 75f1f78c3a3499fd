/** One load measurement with autocannon: requests per second and latency percentiles. */
import autocannon from 'autocannon';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: should be 0. */
  failures: number;
}

export async function measure(url: string, { connections = 50, seconds = 5, warmupSeconds = 1 } = {}): Promise<Load> {
  await autocannon({ url, connections, duration: warmupSeconds });
  const result = await autocannon({ url, connections, duration: seconds });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
