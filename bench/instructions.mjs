#!/usr/bin/env node
// Instructions per request: a steadier companion to the serve benchmark's CPU figures.
// valgrind's callgrind counts the user-space instructions of one server process; the
// difference between a run of LO requests and one of HI, divided by HI - LO, is the count per
// request with start-up, warm-up and shutdown cancelled out. On this shared machine CPU time
// per answer moves by a third between rounds. These counts usually repeat to within a few
// per cent, but once varied by up to 10% (the JIT's work lands on the counted requests
// unevenly): compare builds in alternating runs, with a larger HI. Kernel time is not
// counted: it is much the same for every server answering the same bytes. Every thread of the
// process is counted, so since 2026-12-07 a PUT's count includes serve's checkpoint thread
// (store/wal-checkpointer.ts), which counts before then did not; a GET never wakes it. Not part
// of `npm run bench`: it needs valgrind (Debian's package) and takes minutes, each server
// running about fifty times slower.
//
//   npm run bench:instructions -- [get|put] [--floors] [--functions]
//     get        the serve benchmark's GET (the demo course's assignments; the default)
//     put        its PUT of a final-grade override, cycling through 1,000 students
//     --floors   also the bare node:http server (bench/bare-server.mjs) and the least a Hono
//                app on @hono/node-server does for the GET (bench/hono-floor.mjs)
//     --functions  where coursebook's instructions go: self counts per function, JavaScript
//                named from node's --perf-basic-prof map
//     --bin PATH another build's bin/coursebook (a worktree's), for a before-and-after
// Env: LO (default 2000) and HI (default 8000) requests.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { BENCH_COURSE, BENCH_INSTRUCTOR_TOKEN, studentId, writeBenchDataset } from './dataset.mjs';
import { bin, coursebook, demoDataset, root, scratch, startServer } from './lib/processes.mjs';

const args = process.argv.slice(2);
const mode = args.includes('put') ? 'put' : 'get';
const binAt = args.indexOf('--bin');
const coursebookBin = binAt === -1 ? bin : args[binAt + 1];
const lo = Number(process.env.LO ?? 2000);
const hi = Number(process.env.HI ?? 8000);
const { dir, env } = scratch('instructions');
const base = join(dir, 'base.db');
coursebook(['--db', base, 'import', demoDataset], env);
if (mode === 'put') coursebook(['--db', base, 'import', writeBenchDataset(dir, { students: 1000 }).path], env);

const GET_PATH = '/api/v1/courses/crs_data101/assignments';
const LETTERS = ['A', 'B', 'C', 'D', 'F'];

/** autocannon's options for one run: the same GET, or PUTs that each name the next student at the version last acknowledged. */
function load(origin) {
  if (mode === 'get') return { url: origin + GET_PATH, headers: { authorization: 'Bearer demo-instructor-token' } };
  const versions = new Map();
  let next = 0;
  return {
    url: origin,
    requests: [
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${BENCH_INSTRUCTOR_TOKEN}`, 'content-type': 'application/json' },
        setupRequest: (req, context) => {
          const n = next++;
          const student = studentId((n % 1000) + 1);
          context.student = student;
          const body = JSON.stringify({ reason: 'bench', expectedVersion: versions.get(student) ?? 0, letter: LETTERS[n % 5] });
          return { ...req, path: `/api/v1/courses/${BENCH_COURSE}/gradebook/students/${student}/final`, body };
        },
        onResponse: (status, _body, context) => {
          if (status === 200) versions.set(context.student, (versions.get(context.student) ?? 0) + 1);
        },
      },
    ],
  };
}

/** The floors answer the bytes coursebook answers, as the serve benchmark's floor does. */
async function floorBody() {
  const file = join(dir, 'body.json');
  if (!existsSync(file)) {
    const server = await startServer(bin, ['--db', base, 'serve', '--port', '0', '--log', 'off', '--rate-limit', 'off'], env);
    const res = await fetch(server.url + GET_PATH, { headers: { authorization: 'Bearer demo-instructor-token' } });
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    await server.stop();
  }
  return file;
}

/** One server under callgrind for `amount` requests: its instruction count, and its output files. */
async function counted(server, amount, tag) {
  const db = join(dir, `${tag}.db`);
  copyFileSync(base, db);
  const out = join(dir, `callgrind.${tag}`);
  const nodeFlags = args.includes('--functions') ? ['--perf-basic-prof', '--interpreted-frames-native-stack'] : [];
  const script =
    server === 'coursebook'
      ? [coursebookBin, '--db', db, 'serve', '--port', '0', '--log', 'off', '--rate-limit', 'off']
      : [join(root, server === 'bare' ? 'bench/bare-server.mjs' : 'bench/hono-floor.mjs')];
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all-non-file', process.execPath, ...nodeFlags, ...script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: dir, // node's --perf-basic-prof writes a V8 log file where it runs
    env: { ...env, BARE_TOKEN: 'demo-instructor-token', BARE_BODY_FILE: server === 'coursebook' ? '' : await floorBody() },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line).url));
    child.once('exit', (code) => reject(new Error(`${server} exited with ${code}: ${stderr.slice(-2000)}`)));
  });
  const result = await autocannon({ ...load(url), connections: 10, amount, timeout: 60 });
  if (result.non2xx > 0) throw new Error(`${server}: ${result.non2xx} answers were not 2xx`);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const total = /Collected : (\d+)/.exec(stderr);
  if (!total) throw new Error(`${server}: no callgrind total: ${stderr.slice(-2000)}`);
  const pid = /==(\d+)==/.exec(stderr)?.[1];
  return { instructions: Number(total[1]), out, map: pid ? `/tmp/perf-${pid}.map` : null };
}

/** Self instructions per function name of a callgrind file (JIT code named from the perf map). */
function selfCounts(file, mapFile) {
  const ranges = [];
  if (mapFile && existsSync(mapFile)) {
    for (const line of readFileSync(mapFile, 'utf8').split('\n')) {
      const [start, size, ...name] = line.split(' ');
      if (name.length > 0) ranges.push([Number.parseInt(start, 16), Number.parseInt(size, 16), name.join(' ')]);
    }
    ranges.sort((a, b) => a[0] - b[0]);
  }
  const nameOf = (raw) => {
    const hex = /^0x([0-9a-f]+)$/.exec(raw);
    if (!hex) return raw;
    const at = Number.parseInt(hex[1], 16);
    let lowIndex = 0;
    let highIndex = ranges.length - 1;
    while (lowIndex <= highIndex) {
      const mid = (lowIndex + highIndex) >> 1;
      const [start, size, name] = ranges[mid];
      if (at < start) highIndex = mid - 1;
      else if (at >= start + size) lowIndex = mid + 1;
      else return name;
    }
    return raw;
  };
  const names = new Map();
  const self = new Map();
  let current = null;
  let callCost = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const fn = /^fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (fn) {
      if (fn[2]) names.set(fn[1], nameOf(fn[2]));
      current = fn[1];
      continue;
    }
    const called = /^cfn=\((\d+)\) (.*)$/.exec(line);
    if (called) names.set(called[1], nameOf(called[2]));
    if (line.startsWith('calls=')) {
      callCost = true; // the next cost line is the call's inclusive cost, not this function's own
      continue;
    }
    if (/^[0-9+*-]/.test(line)) {
      if (callCost) callCost = false;
      else if (current !== null) self.set(current, (self.get(current) ?? 0) + Number(line.split(' ')[1] ?? 0));
    }
  }
  const byName = new Map();
  for (const [id, count] of self) byName.set(names.get(id) ?? id, (byName.get(names.get(id) ?? id) ?? 0) + count);
  return byName;
}

const servers = args.includes('--floors') && mode === 'get' ? ['bare', 'hono', 'coursebook'] : ['coursebook'];
console.log(
  `# instructions per request, ${mode.toUpperCase()}, runs of ${lo} and ${hi} requests (valgrind callgrind, user space); coursebook: ${coursebookBin}`,
);
for (const server of servers) {
  const low = await counted(server, lo, `${server}-lo`);
  const high = await counted(server, hi, `${server}-hi`);
  console.log(`${server.padEnd(12)} ${Math.round((high.instructions - low.instructions) / (hi - lo)).toLocaleString('en-US')}`);
  if (server === 'coursebook' && args.includes('--functions')) {
    const a = selfCounts(low.out, low.map);
    const b = selfCounts(high.out, high.map);
    const rows = [...new Set([...a.keys(), ...b.keys()])].map((name) => [name, ((b.get(name) ?? 0) - (a.get(name) ?? 0)) / (hi - lo)]);
    rows.sort((x, y) => y[1] - x[1]);
    for (const [name, count] of rows.slice(0, 40)) console.log(`  ${Math.round(count).toString().padStart(7)}  ${name.slice(0, 140)}`);
  }
  for (const run of [low, high]) if (run.map) rmSync(run.map, { force: true });
}
