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
// Real and floor take turns: BENCH_ROUNDS rounds (default 5, odd for a true median), each
// side BENCH_SECONDS (default 10) split over them (at least 2 s a round), after a warm-up of
// BENCH_WARMUP_SECONDS (default 3) each. A ratio is the median of the rounds' ratios: this
// shared machine's speed moves by a third from one minute to the next, and a floor measured
// in other seconds than the figure moved the ratio with it (0.40x and 0.51x in two runs of
// the same build).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_COURSE, BENCH_INSTRUCTOR_TOKEN, studentId, writeBenchDataset } from './dataset.mjs';
import { bin, coursebook, cpuMs, demoDataset, root, scratch, startServer } from './lib/processes.mjs';
import { median, ms, perSecond, printTarget, statusMix } from './lib/report.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const roundSeconds = Math.max(2, Math.ceil(seconds / rounds));
const connections = 50;
const STUDENTS = 1000;
const LETTERS = ['A', 'B', 'C', 'D', 'F'];
const bareServer = join(root, 'bench/bare-server.mjs');

const { dir, env } = scratch('serve');
const db = join(dir, 'serve.db');
coursebook(['--db', db, 'import', demoDataset], env);
coursebook(['--db', db, 'import', writeBenchDataset(dir, { students: STUDENTS }).path], env);

/**
 * One load of `spec`'s making ({options, settle}: a writer keeps its own state from run to
 * run, and settles it after each, when answers still in flight were cut off).
 */
async function loadOnce(url, spec, duration, pid) {
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections, duration, ...spec.options() });
  const after = cpuMs(pid);
  await spec.settle?.(new URL(url).origin);
  // The server's CPU per answer, in µs: what a change to the request path moves even when
  // the machine's speed moves req/s by a third from one minute to the next.
  const answered = result.requests.total;
  return { ...result, cpuPerRequest: before !== null && after !== null && answered > 0 ? ((after - before) * 1000) / answered : null };
}

/** Rounds of one side as one result: req/s and p99 per round, every status counted. */
function combined(results) {
  const statusCodeStats = {};
  for (const r of results)
    for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {}))
      statusCodeStats[code] = { count: (statusCodeStats[code]?.count ?? 0) + Number(count) };
  const perRound = results.map((r) => r.requests.average);
  const p99s = results.map((r) => r.latency.p99);
  return {
    reqPerSec: median(perRound),
    perRound,
    p99: median(p99s),
    p99s,
    p50: median(results.map((r) => r.latency.p50)),
    cpuPerRequest: results.every((r) => r.cpuPerRequest !== null) ? median(results.map((r) => r.cpuPerRequest)) : null,
    max: Math.max(...results.map((r) => r.latency.max)),
    statusCodeStats,
    errors: results.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * Measure coursebook and the floor answering `body` in turns (real, floor, real, ...), each
 * with a load of its own making; the ratio is the median of the rounds' ratios.
 */
async function beside(server, path, token, body, realSpec, floorSpec = realSpec) {
  const bodyFile = join(dir, 'floor-body.json');
  writeFileSync(bodyFile, body);
  const floorServer = await startServer(bareServer, [], { ...env, BARE_TOKEN: token, BARE_BODY_FILE: bodyFile });
  try {
    const [realUrl, floorUrl] = [server.url + path, floorServer.url + path];
    await loadOnce(realUrl, realSpec, warmupSeconds, server.pid);
    await loadOnce(floorUrl, floorSpec, warmupSeconds, floorServer.pid);
    const real = [];
    const floor = [];
    for (let r = 0; r < rounds; r++) {
      real.push(await loadOnce(realUrl, realSpec, roundSeconds, server.pid));
      floor.push(await loadOnce(floorUrl, floorSpec, roundSeconds, floorServer.pid));
    }
    const ratios = real.map((x, i) => x.requests.average / floor[i].requests.average);
    return { real: combined(real), floor: combined(floor), ratio: median(ratios), ratios };
  } finally {
    await floorServer.stop();
  }
}

/** The rounds' ratios, and the server's CPU per answer beside the floor's (medians of the rounds). */
const roundsNote = (m) => {
  const ratios = `rounds ${m.ratios.map((r) => r.toFixed(2)).join(', ')}`;
  if (m.real.cpuPerRequest === null || m.floor.cpuPerRequest === null) return ratios;
  const [real, floor] = [m.real.cpuPerRequest, m.floor.cpuPerRequest];
  return `${ratios}; CPU ${real.toFixed(0)} µs an answer against the floor's ${floor.toFixed(0)} µs (${(floor / real).toFixed(2)}x)`;
};

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
  const getNote = `${listBody.length} B, ${connections} conn, ${rounds} x ${roundSeconds} s; ${roundsNote(get)}; ${getMix.text}`;
  printTarget({
    name: 'serve GET course assignments',
    figure: perSecond(get.real.reqPerSec, 'req'),
    floor: `bare node:http: ${perSecond(get.floor.reqPerSec, 'req')}`,
    ratio: get.ratio,
    target: '>= 0.5x',
    pass: getSound ? get.ratio >= 0.5 : null,
    note: getNote,
  });
  printTarget({
    name: 'serve GET course assignments, p99',
    figure: ms(get.real.p99),
    floor: `bare node:http: ${ms(get.floor.p99)}`,
    target: '< 20 ms',
    pass: getSound ? get.real.p99 < 20 : null,
    note: `median of the rounds' p99 (${get.real.p99s.map(ms).join(', ')}); p50 ${ms(get.real.p50)}, max ${ms(get.real.max)}`,
  });

  // --- PUT: final-grade overrides, cycling through the students ---------------------------
  const putHeaders = { authorization: `Bearer ${BENCH_INSTRUCTOR_TOKEN}`, 'content-type': 'application/json' };
  const finalPath = (student) => `/api/v1/courses/${BENCH_COURSE}/gradebook/students/${student}/final`;
  // The client's view of each student's override version: advanced by each 200, corrected
  // from a 409's currentVersion, so one lost answer cannot turn the rest of the run into 409s.
  // Writes in flight when a run stops lose their answers (the service may still have applied
  // them): after each run those students' versions are read back from the history.
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
      settle: async (origin) => {
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
  printTarget({
    name: 'serve PUT final grade override',
    figure: perSecond(put.real.reqPerSec, 'req'),
    floor: `bare node:http: ${perSecond(put.floor.reqPerSec, 'req')}`,
    ratio: put.ratio,
    target: '>= 0.4x',
    pass: putMix.okShare >= 0.99 && statusMix(put.floor).okShare >= 0.99 ? put.ratio >= 0.4 : null,
    note: `${connections} conn, ${rounds} x ${roundSeconds} s, p99 ${ms(put.real.p99)}; ${roundsNote(put)}; ${putMix.text}`,
  });
} finally {
  await server.stop();
}

// --- For the record: the same GET from `serve --memory --seed` (a CI fixture's store, which
// no other connection can reach, so the read cache needs no look at other commits) --------
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
      figure: perSecond(get.real.reqPerSec, 'req'),
      floor: `bare node:http: ${perSecond(get.floor.reqPerSec, 'req')}`,
      ratio: get.ratio,
      pass: 'info',
      note: `p99 ${ms(get.real.p99)}; ${roundsNote(get)}; ${statusMix(get.real).text}`,
    });
  } finally {
    await memory.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
