import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { inlineGrader } from '../../src/api/grader.js';
import type { ServeOptions } from '../../src/serve/service.js';
import { BIN, ROOT } from './cli.js';

export interface Served {
  url: string;
  port: number;
  /** The listening line as printed (with adminToken for --memory without a seed). */
  line: Record<string, unknown>;
  child: ChildProcess;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Start `coursebook serve ...` and wait for its one JSON listening line. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
      cwd: ROOT,
      env: { ...process.env, CI: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (d) => (err += d));
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${err}`));
    });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const info = JSON.parse(line) as { event: string; url: string; port: number };
      const printed = JSON.parse(line) as Record<string, unknown>;
      child.removeAllListeners('exit');
      resolve({
        url: info.url,
        port: info.port,
        line: printed,
        child,
        stderr: () => err,
        stop: (signal = 'SIGTERM') =>
          new Promise((res) => {
            if (child.exitCode !== null) return res(child.exitCode);
            child.once('exit', (code) => res(code));
            child.kill(signal);
          }),
      });
    });
  });
}

/**
 * Options for `startServer` in the test's own process: a throwaway store on 127.0.0.1, a
 * free port, no fixture routes, no rate limit, no log, stderr dropped, grades computed in
 * this thread (serve's worker pool loads its worker from the build, not from src/); `over`
 * changes any.
 */
export function inProcessServeOptions(over: Partial<ServeOptions> = {}): ServeOptions {
  return {
    db: ':memory:',
    host: '127.0.0.1',
    port: 0,
    deterministic: false,
    allowReset: false,
    allowAdmin: false,
    rateLimit: 'off',
    maxBody: 1024 * 1024,
    log: 'off',
    stderr: { write: () => true },
    grader: inlineGrader,
    ...over,
  };
}
