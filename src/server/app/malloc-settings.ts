/**
 * Imported first by the scripts that run the server (`npm start`, `npm run serve`):
 * on Linux it restarts the process in place (execve: same pid, same stdio, same
 * arguments) with glibc's malloc told to keep its mmap threshold at 128 KiB.
 *
 * Why: glibc serves an allocation of 128 KiB or more by mmap, until such a block is
 * freed; then it raises the threshold to that block's size (up to 32 MiB) and keeps
 * up to twice that free at the top of its heap instead of returning it. A switch to
 * a new build allocates blocks of the size of the published documents (the hub reads
 * each topic whole: /reviews.json is 14 MiB at 10,000 reviews), so after a few
 * switches tens of MiB of freed memory stayed resident: at 10,000 reviews malloc's
 * heap went from 35 to 60 MiB over 50 switches, and stayed at 26 MiB with this
 * setting. glibc reads it only at start-up, hence the restart. An operator's own
 * MALLOC_MMAP_THRESHOLD_ is kept; other C libraries ignore the variable.
 */
const SETTING = 'MALLOC_MMAP_THRESHOLD_';
const THRESHOLD_BYTES = String(128 * 1024);

if (process.platform === 'linux' && process.env[SETTING] === undefined && typeof process.execve === 'function') {
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, [SETTING]: THRESHOLD_BYTES });
  } catch (error) {
    // Serving without the setting beats not serving: memory then grows by tens of MiB over the first switches.
    console.error(`Could not restart with ${SETTING}=${THRESHOLD_BYTES}: ${(error as Error).message}`);
  }
}
