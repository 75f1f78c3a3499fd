/**
 * Start-up reads the whole served build once (its catalog: every review's line of
 * /reviews.json parsed, folded and indexed), and V8 sizes its heap by that burst:
 * left alone, a server at 100,000 reviews idles at about 610 MiB resident, a third
 * of it garbage of the load that V8 keeps mapped. One memory-reducing collection
 * before the server listens gives it back (about 480 MiB). It holds the process
 * for a second at that size, which is why it runs here, when no request waits, and
 * never after a switch (build-watcher.ts).
 *
 * After that, V8's memory reducer (which collects when the process turns idle) is
 * told to collect as usual rather than compact the whole heap: compacting 290 MB
 * at 100,000 reviews held the event loop 390 ms to 1.1 s, where its plain
 * collection holds it 50 to 110 ms. Pages a collection empties still go back to the system.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectStartUpGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: object) => void;
  setFlagsFromString('--no-expose-gc');
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  setFlagsFromString('--no-memory-reducer-favors-memory');
}
