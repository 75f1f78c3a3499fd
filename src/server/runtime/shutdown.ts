/**
 * Work to finish before the process exits (the hub's deliveries in flight).
 * The server wrapper and the Astro-bundled routes are separate module worlds,
 * so the hooks live on `globalThis` under a registered symbol that both share.
 */
type Hook = () => Promise<void> | void;

const KEY = Symbol.for('reviews-service.shutdown-hooks');

function hooks(): Hook[] {
  const holder = globalThis as { [KEY]?: Hook[] };
  holder[KEY] ??= [];
  return holder[KEY];
}

export function onShutdown(hook: Hook): void {
  hooks().push(hook);
}

/** Runs every hook once, together; a failing hook does not stop the others. */
export async function runShutdownHooks(): Promise<void> {
  await Promise.allSettled(hooks().splice(0).map(async (hook) => hook()));
}
