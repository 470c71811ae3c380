// `coursebook serve` under load (the Performance issue), each beside a bare node:http server
// (bench/bare-server.mjs) answering the same bytes after the same Authorization check. Both
// run as child processes; autocannon (50 connections) drives them from this process, after a
// warm-up of each. On a 2-core machine the load generator and the server get a core each.
//   GET  /courses/crs_data101/assignments (the demo course's 7 assignments, its instructor's
//        token): req/s as a ratio of the floor's (target >= 0.5x), and p99 (target < 20 ms).
//   (INFO) the same GET from `serve --memory --seed` (the demo dataset).
//   PUT  /courses/crs_bench/gradebook/students/{id}/final (a final-grade override, the bench
//        dataset's instructor): req/s ratio (target >= 0.4x). Each request names the next of
//        the course's 1,000 students with the version the client last saw acknowledged for
//        them, so every request is a write the service accepts; the status mix is printed,
//        and a run with under 99% 200s is REFUSED rather than reported.
// BENCH_SECONDS (default 10) per measured run, BENCH_WARMUP_SECONDS (default 3).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_COURSE, BENCH_INSTRUCTOR_TOKEN, studentId, writeBenchDataset } from './dataset.mjs';
import { bin, coursebook, demoDataset, root, scratch, startServer } from './lib/processes.mjs';
import { ms, perSecond, printTarget, statusMix } from './lib/report.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = 50;
const STUDENTS = 1000;
const LETTERS = ['A', 'B', 'C', 'D', 'F'];
const bareServer = join(root, 'bench/bare-server.mjs');

const { dir, env } = scratch('serve');
const db = join(dir, 'serve.db');
coursebook(['--db', db, 'import', demoDataset], env);
coursebook(['--db', db, 'import', writeBenchDataset(dir, { students: STUDENTS }).path], env);

async function load(url, { options, afterWarmup = async () => {} }) {
  await autocannon({ url, connections, duration: warmupSeconds, ...options() });
  await afterWarmup(new URL(url).origin);
  return autocannon({ url, connections, duration: seconds, ...options() });
}

/**
 * Measure coursebook, then the floor answering `body`. Each gets a load of the same making
 * ({options, afterWarmup}; a writer keeps its own state across its warm-up and its run).
 */
async function beside(server, path, token, body, realOptions, floorOptions = realOptions) {
  const bodyFile = join(dir, 'floor-body.json');
  writeFileSync(bodyFile, body);
  const floorServer = await startServer(bareServer, [], { ...env, BARE_TOKEN: token, BARE_BODY_FILE: bodyFile });
  try {
    const real = await load(server.url + path, realOptions);
    const floor = await load(floorServer.url + path, floorOptions);
    return { real, floor };
  } finally {
    await floorServer.stop();
  }
}

/** The demo course's assignment list under load on `server`, beside the floor answering the same bytes. */
async function listLoad(server) {
  const path = '/api/v1/courses/crs_data101/assignments';
  const headers = { authorization: 'Bearer demo-instructor-token' };
  const listed = await fetch(server.url + path, { headers });
  const listBody = Buffer.from(await listed.arrayBuffer());
  if (listed.status !== 200) throw new Error(`GET ${path} answered ${listed.status}: ${listBody}`);
  return { get: await beside(server, path, 'demo-instructor-token', listBody, { options: () => ({ headers }) }), listBody };
}

const server = await startServer(bin, ['--db', db, 'serve', '--port', '0', '--log', 'off', '--rate-limit', 'off'], env);
try {
  // --- GET: the demo course's assignment list -------------------------------------------
  const { get, listBody } = await listLoad(server);
  const getMix = statusMix(get.real);
  const getSound = getMix.okShare >= 0.99 && statusMix(get.floor).okShare >= 0.99;
  const getRatio = get.real.requests.average / get.floor.requests.average;
  const getNote = `${listBody.length} B, ${connections} conn, ${seconds} s; ${getMix.text}`;
  printTarget({
    name: 'serve GET course assignments',
    figure: perSecond(get.real.requests.average, 'req'),
    floor: `bare node:http: ${perSecond(get.floor.requests.average, 'req')}`,
    ratio: getRatio,
    target: '>= 0.5x',
    pass: getSound ? getRatio >= 0.5 : null,
    note: getNote,
  });
  printTarget({
    name: 'serve GET course assignments, p99',
    figure: ms(get.real.latency.p99),
    floor: `bare node:http: ${ms(get.floor.latency.p99)}`,
    target: '< 20 ms',
    pass: getSound ? get.real.latency.p99 < 20 : null,
    note: `p50 ${ms(get.real.latency.p50)}, max ${ms(get.real.latency.max)}`,
  });

  // --- PUT: final-grade overrides, cycling through the students ---------------------------
  const putHeaders = { authorization: `Bearer ${BENCH_INSTRUCTOR_TOKEN}`, 'content-type': 'application/json' };
  const finalPath = (student) => `/api/v1/courses/${BENCH_COURSE}/gradebook/students/${student}/final`;
  // The client's view of each student's override version: advanced by each 200, corrected
  // from a 409's currentVersion, so one lost answer cannot turn the rest of the run into 409s.
  // Writes in flight when the warm-up stops lose their answers (the service may still have
  // applied them): after the warm-up those students' versions are read back from the history.
  const overrideWriter = (readBack) => {
    const versions = new Map();
    const inFlight = new Set();
    let next = 0;
    return {
      versions,
      options: () => ({
        requests: [
          {
            method: 'PUT',
            headers: putHeaders,
            setupRequest: (req, context) => {
              const n = next++;
              const student = studentId((n % STUDENTS) + 1);
              context.student = student;
              inFlight.add(student);
              const expectedVersion = versions.get(student) ?? 0;
              return { ...req, path: finalPath(student), body: JSON.stringify({ reason: 'bench', expectedVersion, letter: LETTERS[n % LETTERS.length] }) };
            },
            onResponse: (status, body, context) => {
              inFlight.delete(context.student);
              if (status === 200) versions.set(context.student, (versions.get(context.student) ?? 0) + 1);
              else if (status === 409) versions.set(context.student, JSON.parse(body).error.details.currentVersion);
            },
          },
        ],
      }),
      afterWarmup: async (origin) => {
        for (const student of inFlight) if (readBack) versions.set(student, await readBack(origin, student));
        inFlight.clear();
      },
    };
  };
  const historyVersion = async (origin, student) => {
    const res = await fetch(origin + finalPath(student) + '/history', { headers: putHeaders });
    if (res.status !== 200) throw new Error(`GET ${finalPath(student)}/history answered ${res.status}`);
    return Math.max(0, ...(await res.json()).map((h) => h.version));
  };
  // One write by hand: the bytes coursebook answers a PUT with, for the floor to answer.
  const first = await fetch(server.url + finalPath(studentId(1)), {
    method: 'PUT',
    headers: putHeaders,
    body: JSON.stringify({ reason: 'bench', expectedVersion: 0, letter: 'A' }),
  });
  const putBody = Buffer.from(await first.arrayBuffer());
  if (first.status !== 200) throw new Error(`PUT ${finalPath(studentId(1))} answered ${first.status}: ${putBody}`);
  const realWriter = overrideWriter(historyVersion);
  // The floor checks no versions; it starts from the same one so its request bodies match.
  const floorWriter = overrideWriter(null);
  for (const writer of [realWriter, floorWriter]) writer.versions.set(studentId(1), 1);
  const put = await beside(server, finalPath(studentId(1)), BENCH_INSTRUCTOR_TOKEN, putBody, realWriter, floorWriter);
  const putMix = statusMix(put.real);
  const putRatio = put.real.requests.average / put.floor.requests.average;
  printTarget({
    name: 'serve PUT final grade override',
    figure: perSecond(put.real.requests.average, 'req'),
    floor: `bare node:http: ${perSecond(put.floor.requests.average, 'req')}`,
    ratio: putRatio,
    target: '>= 0.4x',
    pass: putMix.okShare >= 0.99 && statusMix(put.floor).okShare >= 0.99 ? putRatio >= 0.4 : null,
    note: `${connections} conn, ${seconds} s, p99 ${ms(put.real.latency.p99)}; ${putMix.text}`,
  });
} finally {
  await server.stop();
}

// --- For the record: the same GET from `serve --memory --seed` (a CI fixture's store, which
// no other connection can reach, so the read cache needs no data_version check) -----------
try {
  const memory = await startServer(
    bin,
    ['serve', '--memory', '--seed', demoDataset, '--no-seed-cache', '--port', '0', '--log', 'off', '--rate-limit', 'off'],
    env,
  );
  try {
    const { get } = await listLoad(memory);
    printTarget({
      name: 'serve --memory GET course assignments',
      figure: perSecond(get.real.requests.average, 'req'),
      floor: `bare node:http: ${perSecond(get.floor.requests.average, 'req')}`,
      ratio: get.real.requests.average / get.floor.requests.average,
      pass: 'info',
      note: `p99 ${ms(get.real.latency.p99)}; ${statusMix(get.real).text}`,
    });
  } finally {
    await memory.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
