// What bench/postgres.mjs needs beyond the bench framework's processes (processes.mjs) and
// line format (report.mjs): `coursebook serve` as the comparisons run it, a dataset with
// 1,000 students for the final-grade writes, and a final-grade writer for autocannon.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, startServer } from './processes.mjs';

/** `coursebook serve ARGS` on a free port, without logs or rate limits, once it listens. */
export const startServe = (args, env) => startServer(bin, ['serve', '--port', '0', '--log', 'off', '--rate-limit', 'off', ...args], env);

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
