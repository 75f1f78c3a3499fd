// Preloaded into the `astro build` child (node --import): when the build script that
// started it dies (SIGKILL leaves no chance to clean up), the child exits too, instead
// of writing on into a directory and a cache the next build will use.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) process.exit(1);
}, 250).unref();
