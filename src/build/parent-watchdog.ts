// Preloaded into the `astro build` child (node --import). A build script killed with
// SIGKILL cannot stop its child, so the child stops itself: it records its pid for the
// next build (build-lock.ts kills a leftover one before starting), and exits on its
// own once it notices its parent is gone (whenever its event loop is free to look).
import { writeFileSync } from 'node:fs';

const parentPid = process.ppid;
const pidFile = process.env.BUILD_CHILD_PID_FILE;
if (pidFile) writeFileSync(pidFile, `${process.pid}\n`);
setInterval(() => {
  if (process.ppid !== parentPid) process.exit(1);
}, 250).unref();
