/**
 * Memory settings of the build's child processes (its steps and `astro build`), which
 * run side by side: their resident memory adds up, and at 100,000 reviews the build's
 * peak is the content step's end while Astro waits, bundled, for the site.
 *
 * V8's young generation capped at 16 MiB semi-spaces. Without pointer compression
 * Node's default grows it to 128 MiB per isolate: the content step has three (its
 * thread and two analyzer threads) and Astro one, and a worker's pages stay resident
 * for seconds after it ends, into the step's busiest phase. The analyzer's garbage
 * dies young and the records it keeps are promoted either way: preparing 4,000
 * reviews took no longer with 16 MiB than with the default. An operator's own
 * --max-semi-space-size (in NODE_OPTIONS) wins.
 *
 * Astro bundles with Rolldown, whose allocator (mimalloc) keeps the memory it freed
 * committed, to reuse it: about 150 MiB of a bundle that is done before the content
 * step is. Told to give freed pages back at once, it does. An operator's own
 * MIMALLOC_* settings win.
 */
const SEMI_SPACE = '--max-semi-space-size';
const SEMI_SPACE_MIB = 16;

const MIMALLOC = { MIMALLOC_PURGE_DELAY: '0', MIMALLOC_ARENA_EAGER_COMMIT: '0' };

/** Whether these Node flags (NODE_OPTIONS split, or execArgv) set the semi-space size, in either spelling. */
export function setsSemiSpace(flags: readonly string[]): boolean {
  return flags.some((flag) => flag.replace(/_/g, '-').startsWith(SEMI_SPACE));
}

/** Node flags for a build child, before its script. */
export function childNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return setsSemiSpace((env.NODE_OPTIONS ?? '').split(/\s+/)) ? [] : [`${SEMI_SPACE}=${SEMI_SPACE_MIB}`];
}

/** The environment of the Astro child, from the build's own. */
export function astroEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...MIMALLOC, ...env };
}
