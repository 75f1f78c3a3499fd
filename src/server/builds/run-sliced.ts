/**
 * Work run a slice at a time between requests, so that no request waits for it: the
 * next build's catalog (catalog-loader.ts) and MCP content (mcp/content.ts) while a
 * switch prepares them. Each is a generator that yields between bounded steps.
 */

/**
 * How long a slice may hold the event loop: well under the 250 ms no request may
 * wait, and long beside the few milliseconds in which the loop answers every
 * request that waits between two slices (one per open connection), so that under
 * load most of the loop still goes to the next build and it shows within seconds.
 */
const SLICE_MS = 20;
/**
 * The slice after a turn in which a connection arrived. The loop takes about one
 * waiting connection per turn, so 50 clients connecting at once during a switch
 * waited a slice each, up to 1.1 s for the last; short slices take them in quickly.
 */
const ARRIVAL_SLICE_MS = 1;

let arrivals = 0;

/** Counts a connection the server accepted (see ARRIVAL_SLICE_MS). */
export function noteArrival(): void {
  arrivals++;
}

/** Runs steps a slice at a time, letting the event loop answer requests in between. */
export async function runSliced<T>(steps: Generator<void, T>): Promise<T> {
  let seen = arrivals;
  for (;;) {
    const until = performance.now() + (arrivals === seen ? SLICE_MS : ARRIVAL_SLICE_MS);
    seen = arrivals;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      if (performance.now() >= until) break;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
