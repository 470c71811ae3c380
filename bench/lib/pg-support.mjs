// What bench/postgres.mjs needs around its measurements: the one-line target format, child
// processes (the built CLI and `coursebook serve`), a dataset with 1,000 students for the
// final-grade writes, and a final-grade writer for autocannon. The line format is the bench
// framework's (bench/lib/report.mjs on the bench branch), kept identical here so that
// `npm run bench` reads as one table once both are merged:
//   name | figure | floor | ratio | target | PASS, MISS, REFUSED or INFO
// INFO is a figure printed for the record, with no target of the issue to meet.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const root = resolve(import.meta.dirname, '../..');
export const bin = join(root, 'bin/coursebook');
export const demoDataset = join(root, 'data/demo.json');

// --- the line format --------------------------------------------------------------------

export function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The q-quantile (0..1) of some numbers, nearest rank. */
export function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export const ms = (v) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;
export const seconds = (v) => `${(v / 1000).toFixed(2)} s`;
export const perSecond = (v, unit) => `${Math.round(v).toLocaleString('en-US')} ${unit}/s`;

/**
 * Print one target. `ratio` is figure/floor (null for none); `pass` is true, false, null for
 * a refused run (its figure measures nothing: the bench exits 1), or 'info' for a figure
 * without a target.
 */
export function printTarget({ name, figure, floor = '-', ratio = null, target = '-', pass, note = '' }) {
  const verdict = pass === 'info' ? 'INFO' : pass === null ? 'REFUSED' : pass ? 'PASS' : 'MISS';
  if (pass === null) process.exitCode = 1;
  const columns = [name.padEnd(44), figure.padEnd(18), floor.padEnd(36), (ratio === null ? '-' : `${ratio.toFixed(2)}x`).padEnd(6), target.padEnd(14), verdict];
  console.log(columns.join(' | ') + (note ? `  [${note}]` : ''));
}

// --- processes --------------------------------------------------------------------------

/** A scratch folder, and an environment whose config and data homes live in it. */
export function scratch(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `cb-bench-${prefix}-`));
  return { dir, env: { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, CI: '1', NO_COLOR: '1' } };
}

/** `coursebook ARGS` to completion: its stdout and wall time (spawn to exit); throws unless it exits 0. */
export function coursebook(args, env) {
  const start = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`coursebook ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { stdout: result.stdout, ms: elapsed };
}

/** `coursebook serve ARGS` on a free port, once it prints its listening line. */
export async function startServe(args, env) {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--log', 'off', '--rate-limit', 'off', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-8192);
  });
  const url = await new Promise((resolveUrl, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolveUrl(JSON.parse(line).url));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`serve exited with ${code} on SIGTERM: ${stderr}`);
    },
  };
}

// --- the final-grade writers' dataset -----------------------------------------------------

export const BENCH_COURSE = 'crs_pgbench';
export const BENCH_TOKEN = 'pgbench-instructor-token';
export const studentId = (n) => `usr_pgbench_s${String(n).padStart(4, '0')}`;

/** One course, its instructor (with a token) and `students` students: each a final grade to override. */
export function writeBenchDataset(dir, { students = 1000 } = {}) {
  const instructor = 'usr_pgbench_instructor';
  const dataset = {
    coursebook: 1,
    users: [
      { id: instructor, name: 'Bench Instructor', admin: false },
      ...Array.from({ length: students }, (_, i) => ({ id: studentId(i + 1), name: `Student ${i + 1}`, admin: false })),
    ],
    tokens: [{ id: 'tok_pgbench', token: BENCH_TOKEN, userId: instructor, scopes: ['*'] }],
    courses: [{ id: BENCH_COURSE, title: 'Bench course' }],
    enrollments: [
      { courseId: BENCH_COURSE, userId: instructor, role: 'instructor' },
      ...Array.from({ length: students }, (_, i) => ({ courseId: BENCH_COURSE, userId: studentId(i + 1), role: 'student' })),
    ],
  };
  const path = join(dir, 'pgbench-dataset.json');
  writeFileSync(path, JSON.stringify(dataset));
  return path;
}

const LETTERS = ['A', 'B', 'C', 'D', 'F'];
const finalPath = (student) => `/api/v1/courses/${BENCH_COURSE}/gradebook/students/${student}/final`;
const writeHeaders = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' };

/**
 * Final-grade overrides for autocannon, cycling through students `first..last`, each request
 * naming the version the client last saw acknowledged for its student: every request is a
 * write the service accepts (a 409 corrects the client's version from currentVersion). Two
 * writers on disjoint students never conflict with each other.
 */
export function finalGradeWriter(first, last) {
  const versions = new Map();
  // Writes in flight when a load stops lose their answers (the service may still have made
  // them): settle() reads those students' versions back before the next load.
  const inFlight = new Set();
  let next = 0;
  return {
    requests: () => [
      {
        method: 'PUT',
        headers: writeHeaders,
        setupRequest: (req, context) => {
          const n = next++;
          const student = studentId(first + (n % (last - first + 1)));
          context.student = student;
          inFlight.add(student);
          const expectedVersion = versions.get(student) ?? 0;
          return { ...req, path: finalPath(student), body: JSON.stringify({ reason: 'bench', expectedVersion, letter: LETTERS[n % LETTERS.length] }) };
        },
        onResponse: (status, body, context) => {
          inFlight.delete(context.student);
          if (status === 200) versions.set(context.student, JSON.parse(body).version);
          else if (status === 409) versions.set(context.student, JSON.parse(body).error.details.currentVersion);
        },
      },
    ],
    /** Read back the versions of the students whose writes were in flight when a load stopped. */
    async settle(origin) {
      for (const student of inFlight) {
        const res = await fetch(`${origin}${finalPath(student)}/history`, { headers: writeHeaders });
        if (res.status !== 200) throw new Error(`GET ${finalPath(student)}/history answered ${res.status}`);
        versions.set(student, Math.max(0, ...(await res.json()).map((h) => h.version)));
      }
      inFlight.clear();
    },
    /** One write at a time, for single-request latency; its time in ms. */
    async once(origin, n) {
      const student = studentId(first + (n % (last - first + 1)));
      const start = performance.now();
      const res = await fetch(origin + finalPath(student), {
        method: 'PUT',
        headers: writeHeaders,
        body: JSON.stringify({ reason: 'bench', expectedVersion: versions.get(student) ?? 0, letter: LETTERS[n % LETTERS.length] }),
      });
      const body = await res.json();
      const elapsed = performance.now() - start;
      if (res.status !== 200) throw new Error(`PUT ${finalPath(student)} answered ${res.status}: ${JSON.stringify(body)}`);
      versions.set(student, body.version);
      return elapsed;
    },
  };
}

/** The status codes of an autocannon run, e.g. "200: 51234, 409: 3", and the share that were 200. */
export function statusMix(result) {
  const counts = Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]);
  if (result.errors > 0) counts.push(['errors', result.errors]);
  const total = counts.reduce((n, [, c]) => n + c, 0);
  const ok = counts.find(([code]) => code === '200')?.[1] ?? 0;
  return { text: counts.map(([code, c]) => `${code}: ${c}`).join(', '), okShare: total === 0 ? 0 : ok / total };
}
