/**
 * Starts the built server as a real child process on a free port, the way an
 * operator runs it, and stops it by pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT, TEST_SITE_URL } from './build.ts';

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

let serverCount = 0;

/** `startSeconds`: how long it may take to listen (a build of 100,000 reviews loads its catalog first). */
export function startServer(outDir: string, env: Record<string, string> = {}, startSeconds = 20): Promise<RunningServer> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/serve.ts')], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      OUT_DIR: outDir,
      SITE_URL: TEST_SITE_URL,
      HOST: '127.0.0.1',
      PORT: '0',
      // Each server gets its own hub database unless a test names one (never the developer's data/hub.sqlite).
      HUB_DB: path.join(PROJECT_ROOT, 'tmp/test-hub', `${process.pid}-${++serverCount}.sqlite`),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`server did not start in ${startSeconds} s:\n${output}`)), startSeconds * 1000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Serving \S+ at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (!match) return;
      clearTimeout(timer);
      const port = Number(match[1]);
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        process: child,
        output: () => output,
        stop: (signal = 'SIGTERM') =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill(signal);
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`server exited with ${code} before it was ready:\n${output}`)));
  });
}
