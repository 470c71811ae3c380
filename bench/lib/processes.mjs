// Child processes the benchmarks start: the built CLI, `coursebook serve` and the bare
// floor server, all under this node binary so they are measured alike.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const root = resolve(import.meta.dirname, '../..');
export const bin = join(root, 'bin/coursebook');
export const demoDataset = join(root, 'data/demo.json');

/** A scratch folder, and an environment whose config and data homes live in it (no user profile leaks in). */
export function scratch(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `cb-bench-${prefix}-`));
  // Its own seed cache too (serve --memory --seed keeps loaded seeds there): a bench never
  // starts from an image an earlier run, or the user, left behind.
  return { dir, env: { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, COURSEBOOK_CACHE_DIR: join(dir, 'seed-cache'), CI: '1', NO_COLOR: '1' } };
}

/** Run node with these arguments to completion; its wall time in ms (spawn to exit). Throws unless it exits 0. */
export function timedNode(args, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms: elapsed, stdout: result.stdout };
}

/** `coursebook ARGS` to completion (exit 0 or a thrown error naming stderr). */
export function coursebook(args, env) {
  return timedNode([bin, ...args], env).stdout;
}

/**
 * Spawn a server that prints a JSON line with its `url` when listening (coursebook serve and
 * bench/bare-server.mjs both do). Extra node flags go before the script (e.g. --cpu-prof).
 */
export async function startServer(script, args, env, nodeFlags = []) {
  const child = spawn(process.execPath, [...nodeFlags, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  // stderr is kept, not shown: serve's shutdown line is noise, but a failure needs its message.
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-8192);
  });
  const url = await new Promise((resolveUrl, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolveUrl(JSON.parse(line).url));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`${script} exited with ${code} on SIGTERM: ${stderr}`);
    },
  };
}

/**
 * CPU time (user + system, in ms) a process has used so far, from /proc; null where there is
 * no /proc. Less moved by the machine's neighbours than req/s: a figure for the record.
 */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
