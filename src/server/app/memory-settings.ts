/**
 * Imported first by the scripts that run the server (`npm start`, `npm run serve`):
 * on Linux it restarts the process in place (execve: same pid, same stdio, same
 * arguments) with two memory settings that can only be given at start-up.
 *
 * glibc's malloc told to keep its mmap threshold at 128 KiB. glibc serves an
 * allocation of 128 KiB or more by mmap, until such a block is freed; then it raises
 * the threshold to that block's size (up to 32 MiB) and keeps up to twice that free
 * at the top of its heap instead of returning it. A switch to a new build allocated
 * blocks of the size of the published documents, so after a few switches tens of MiB
 * of freed memory stayed resident: at 10,000 reviews malloc's heap went from 35 to
 * 60 MiB over 50 switches, and stayed at 26 MiB with this setting. An operator's own
 * MALLOC_MMAP_THRESHOLD_ is kept; other C libraries ignore the variable.
 *
 * V8's young generation capped at 4 MiB semi-spaces. A switch allocates a burst
 * (each line of the next build's /reviews.json is read and compared) while requests
 * keep allocating; V8 then grows its young generation to the maximum and keeps it
 * resident. At 100,000 reviews under a search load, the switch's peak was 1.6 to
 * 1.7 times the idle server's resident memory with V8's default and 1.3 times with
 * this one. Request garbage dies young, so small semi-spaces cost little. An
 * operator's own --max-semi-space-size (in NODE_OPTIONS or on the command line) wins.
 */
import { setsSemiSpace } from '../../build/child-memory.ts';

const SETTING = 'MALLOC_MMAP_THRESHOLD_';
const THRESHOLD_BYTES = String(128 * 1024);
const SEMI_SPACE = '--max-semi-space-size';
const SEMI_SPACE_MIB = 4;

if (process.platform === 'linux' && process.env[SETTING] === undefined && typeof process.execve === 'function') {
  const given = setsSemiSpace([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]);
  const flags = given ? process.execArgv : [...process.execArgv, `${SEMI_SPACE}=${SEMI_SPACE_MIB}`];
  try {
    process.execve(process.execPath, [process.execPath, ...flags, ...process.argv.slice(1)], { ...process.env, [SETTING]: THRESHOLD_BYTES });
  } catch (error) {
    // Serving without the settings beats not serving: memory then grows by tens of MiB over the first switches.
    console.error(`Could not restart with ${SETTING}=${THRESHOLD_BYTES} and ${SEMI_SPACE}=${SEMI_SPACE_MIB}: ${(error as Error).message}`);
  }
}
