#!/usr/bin/env node
// Benchmarks (npm run bench). Speed targets live here, never in tests.
// Each benchmark prints one line; the README keeps the measured figures.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin/coursebook');
const only = process.argv[2];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeRun(args, env, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  }
  return median(times);
}

const benches = {
  'cold-start': async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-bench-'));
    const db = join(dir, 'bench.db');
    const env = { XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, CI: '1' };
    spawnSync(process.execPath, [bin, '--db', db, 'import', join(root, 'data/demo.json')], { env: { ...process.env, ...env } });
    const runs = 15;
    const bare = timeRun(['-e', '0'], env, runs);
    const cli = timeRun([bin, '--db', db, 'courses', 'list', '--json'], env, runs);
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `cold-start: coursebook courses list --json ${cli.toFixed(0)} ms, node -e 0 ${bare.toFixed(0)} ms, ratio ${(cli / bare).toFixed(2)}x (median of ${runs})`,
    );
  },
};

for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue;
  await run();
}
for (const extra of ['gradebook.mjs', 'serve-gradebook.mjs']) {
  if (only && only !== extra.replace('.mjs', '')) continue;
  try {
    await import(join(root, 'bench', extra));
  } catch (err) {
    if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
  }
}
