/** Servers for benchmarks, as child processes on free ports, stopped by pid. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { statusMiB } from './memory.ts';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/** A server with 100,000 reviews builds its catalog before it listens: seconds when idle, minutes on a loaded machine. */
const START_TIMEOUT_MS = 300_000;

export interface BenchServer {
  url: string;
  pid: number;
  /** From spawn to listening, in milliseconds. */
  startMs: number;
  /** Peak resident set size so far (VmHWM), in MiB; Linux only. */
  peakRssMiB(): number | undefined;
  /** Resident set size now (VmRSS), in MiB; Linux only. */
  rssMiB(): number | undefined;
  /** CPU time used so far (user and system), in seconds; Linux only. */
  cpuSeconds(): number | undefined;
  /** How the process ended ("exit code 1", "signal SIGABRT") with its last output, or undefined while it runs. */
  ended(): string | undefined;
  stop(): Promise<void>;
}

function start(args: string[], env: Record<string, string>, ready: RegExp): Promise<BenchServer> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ended: string | undefined;
  child.once('exit', (code, signal) => (ended = `${signal ? `signal ${signal}` : `exit code ${code}`}; its last output:\n${output.slice(-2_000)}`));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
    let listening = false;
    const onData = (chunk: Buffer) => {
      // Kept short once listening: the tail says why a server died.
      output = listening ? `${output}${chunk.toString()}`.slice(-10_000) : output + chunk.toString();
      if (listening) return;
      const match = ready.exec(output);
      if (!match) return;
      listening = true;
      clearTimeout(timer);
      const pid = child.pid as number;
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        pid,
        startMs: performance.now() - started,
        peakRssMiB: () => statusMiB(pid, 'VmHWM'),
        rssMiB: () => statusMiB(pid, 'VmRSS'),
        cpuSeconds: () => {
          try {
            // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in ticks of 1/100 s.
            const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
            return (Number(fields[11]) + Number(fields[12])) / 100;
          } catch {
            return undefined;
          }
        },
        ended: () => ended,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** The real server (scripts/serve.ts) on a build folder. */
export function startAppServer(outDir: string, siteUrl: string): Promise<BenchServer> {
  const env = { OUT_DIR: outDir, SITE_URL: siteUrl, HOST: '127.0.0.1', PORT: '0', HUB_DB: path.join(outDir, 'bench-hub.sqlite') };
  return start([path.join(PROJECT_ROOT, 'scripts/serve.ts')], env, /Serving \S+ at http:\/\/127\.0\.0\.1:(\d+)\//);
}

/** A bare node:http server answering every request with the bytes of one file: the yardstick. */
/** `floor`: the server reads and parses the request's body before answering (see bare-server.ts). */
export function startBareServer(bodyFile: string, { floor = false } = {}): Promise<BenchServer> {
  return start([path.join(PROJECT_ROOT, 'bench/support/bare-server.ts'), bodyFile, ...(floor ? ['floor'] : [])], {}, /listening on (\d+)/);
}
