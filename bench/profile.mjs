#!/usr/bin/env node
// CPU profiles for the Performance issue, taken the same way before and after:
//   1. one CLI cold start: node --cpu-prof bin/coursebook --db STORE --json courses list
//      (the demo store; sampled every 100 µs, the run is short);
//   2. `coursebook serve` under the serve benchmark's GET load (the demo course's assignment
//      list, 50 connections, 3 s warm-up then BENCH_SECONDS, default 10), the whole process
//      from start to SIGTERM, sampled every 500 µs.
// Writes the .cpuprofile files to bench/out/ and their summaries (bench/profile-summary.mjs)
// as Markdown to the file named (default bench/out/PROFILE.md).
// Usage: npm run bench:profile -- bench/PROFILE-AFTER.md
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { bin, coursebook, demoDataset, root, scratch, startServer, timedNode } from './lib/processes.mjs';
import { summarise } from './profile-summary.mjs';

const target = resolve(process.argv[2] ?? join(root, 'bench/out/PROFILE.md'));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const out = join(root, 'bench/out');
mkdirSync(out, { recursive: true });

const { dir, env } = scratch('profile');
const db = join(dir, 'bench.db');
coursebook(['--db', db, 'import', demoDataset], env);

/**
 * The main thread's .cpuprofile of the process that wrote into its own folder. Node writes one
 * per thread (CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile), and serve has threads of its
 * own (the checkpoint thread on a file store, grading workers): the main thread is thread 0.
 */
function profileIn(folder) {
  const files = readdirSync(folder).filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (files.length !== 1) throw new Error(`expected one main-thread .cpuprofile in ${folder}, found ${files.length}`);
  return join(folder, files[0]);
}

const coldDir = join(out, 'profile-cold-start');
rmSync(coldDir, { recursive: true, force: true });
// One unprofiled run first, so the profiled one finds the files in the disk cache.
timedNode([bin, '--db', db, '--json', 'courses', 'list'], env);
const cold = timedNode(['--cpu-prof', '--cpu-prof-dir', coldDir, '--cpu-prof-interval', '100', bin, '--db', db, '--json', 'courses', 'list'], env);

const serveDir = join(out, 'profile-serve-get');
rmSync(serveDir, { recursive: true, force: true });
const path = '/api/v1/courses/crs_data101/assignments';
const headers = { authorization: 'Bearer demo-instructor-token' };
const server = await startServer(bin, ['--db', db, 'serve', '--port', '0', '--log', 'off', '--rate-limit', 'off'], env, [
  '--cpu-prof',
  '--cpu-prof-dir',
  serveDir,
  '--cpu-prof-interval',
  '500',
]);
let load;
try {
  await autocannon({ url: server.url + path, connections: 50, duration: 3, headers });
  load = await autocannon({ url: server.url + path, connections: 50, duration: seconds, headers });
} finally {
  await server.stop();
}
rmSync(dir, { recursive: true, force: true });

const coldProfile = profileIn(coldDir);
const serveProfile = profileIn(serveDir);
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const rel = (file) => file.slice(root.length + 1);
writeFileSync(
  target,
  [
    `<!-- made by bench/profile.mjs on ${new Date().toISOString()}: node ${process.version} -->`,
    '',
    summarise(read(coldProfile), {
      title: `CLI cold start: \`coursebook --db STORE --json courses list\` (${cold.ms.toFixed(0)} ms wall under the profiler; ${rel(coldProfile)})`,
    }),
    summarise(read(serveProfile), {
      title: `serve under GET load: ${Math.round(load.requests.average)} req/s, p99 ${load.latency.p99} ms, 50 connections, 3 s warm-up + ${seconds} s (${rel(serveProfile)})`,
    }),
  ].join('\n'),
);
console.log(`wrote ${target}`);
