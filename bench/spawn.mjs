// Spawn to first 200 (the Performance issue: at most 1.0x json-server on the seeding bench's
// 1,000 students x 25 graded submissions): from spawning `coursebook serve --memory --seed
// FILE --port 0 --port-file F` until a GET of the course's assignment list answers 200,
// beside json-server 0.17.4 serving the same records (the dataset's collections) until GET
// /assignments answers 200. The demo dataset (data/demo.json, 29 users) is timed the same
// way, for information: there start-up is nearly all of it. json-server is
// not a dependency: it is installed into bench/.cache/ the first time (gitignored); if that
// fails the comparison is skipped with a note. The two alternate; the first round of each
// warms the disk cache and is not counted. Median of BENCH_SPAWN_RUNS (default 7).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_COURSE, BENCH_INSTRUCTOR_TOKEN, writeBenchDataset } from './dataset.mjs';
import { bin, demoDataset, root, scratch } from './lib/processes.mjs';
import { median, ms, printTarget } from './lib/report.mjs';

const runs = Number(process.env.BENCH_SPAWN_RUNS ?? 7);
const JSON_SERVER = '0.17.4';
const cache = join(root, 'bench/.cache');
const jsonServerBin = join(cache, 'node_modules/json-server/lib/cli/bin.js');
const POLL_MS = 2;

/** json-server's bin, installed on demand; null (with the reason) if it cannot be had. */
function jsonServer() {
  const installed = join(cache, 'node_modules/json-server/package.json');
  if (existsSync(installed) && JSON.parse(readFileSync(installed, 'utf8')).version === JSON_SERVER) return { bin: jsonServerBin };
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const res = spawnSync(npm, ['install', '--prefix', cache, '--no-audit', '--no-fund', `json-server@${JSON_SERVER}`], { encoding: 'utf8' });
  if (res.status !== 0 || !existsSync(jsonServerBin))
    return { reason: `npm install of json-server@${JSON_SERVER} failed: ${(res.stderr || String(res.error)).trim().split('\n').pop()}` };
  return { bin: jsonServerBin };
}

/** A port free right now (json-server takes a fixed port). */
async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** The status of one GET, or null while nothing listens. node:http, loaded already, so no lazy load lands in the figure. */
function status(url, headers) {
  return new Promise((resolveStatus) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolveStatus(res.statusCode));
    });
    req.on('error', () => resolveStatus(null));
    req.end();
  });
}

/** Spawn, wait for `ready()` to give a URL and for a GET of it to answer 200; ms from spawn. */
async function spawnTo200(args, env, ready, headers = {}) {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args[0]} exited with ${child.exitCode}: ${stderr}`);
      const url = ready();
      if (url && (await status(url, headers)) === 200) return Number(process.hrtime.bigint() - start) / 1e6;
      await sleep(POLL_MS);
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const { dir, env } = scratch('spawn');
const js = jsonServer();

/** Median spawn-to-200 of serve --seed FILE and of json-server on the same collections. */
async function timeDataset(datasetPath, listPath, token) {
  const { coursebook: _version, ...collections } = JSON.parse(readFileSync(datasetPath, 'utf8'));
  const jsonDb = join(dir, 'db.json');
  writeFileSync(jsonDb, JSON.stringify(collections));
  const courseTimes = [];
  const jsonTimes = [];
  for (let round = 0; round <= runs; round++) {
    const portFile = join(dir, `port-${round}`);
    rmSync(portFile, { force: true });
    const served = await spawnTo200(
      [bin, 'serve', '--memory', '--seed', datasetPath, '--port', '0', '--port-file', portFile],
      env,
      () => {
        const port = existsSync(portFile) ? readFileSync(portFile, 'utf8').trim() : '';
        return port ? `http://127.0.0.1:${port}/api/v1${listPath}` : null;
      },
      { authorization: `Bearer ${token}` },
    );
    if (round > 0) courseTimes.push(served);
    if (js.bin) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/assignments`;
      const t = await spawnTo200([js.bin, '--port', String(port), '--host', '127.0.0.1', jsonDb], env, () => url);
      if (round > 0) jsonTimes.push(t);
    }
  }
  return { figure: median(courseTimes), floor: js.bin ? median(jsonTimes) : null };
}

const bench = writeBenchDataset(dir);
const big = await timeDataset(bench.path, `/courses/${BENCH_COURSE}/assignments`, BENCH_INSTRUCTOR_TOKEN);
const demo = await timeDataset(demoDataset, '/courses/crs_data101/assignments', 'demo-instructor-token');
rmSync(dir, { recursive: true, force: true });

const note = `median of ${runs}; polled every ${POLL_MS} ms`;
for (const [name, { figure, floor }, info] of [
  [`spawn to first 200: serve --seed (${bench.records.toLocaleString('en-US')} records)`, big, false],
  ['spawn to first 200: serve --seed (demo)', demo, true],
]) {
  printTarget({
    name,
    figure: ms(figure),
    floor: `json-server ${JSON_SERVER}: ${floor === null ? 'none' : ms(floor)}`,
    ratio: floor === null ? null : figure / floor,
    target: info ? '-' : '<= 1.0x',
    pass: info ? 'info' : floor !== null && figure / floor <= 1,
    skipped: floor === null,
    note: floor === null ? `${note}; ${js.reason}` : note,
  });
}
