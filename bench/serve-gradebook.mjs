// `serve` with the 10,000 x 200 benchmark gradebook (bench/big-store.mjs): peak RSS of the
// server during 3 concurrent full grade listings (every page, 1000 students a page), and
// /health latency while an export runs. Targets (issue 12): under 600 MB; /health p99
// under 50 ms during the export.
import { readFileSync, rmSync } from 'node:fs';
import { BENCH_TOKEN, bigStore, COURSE } from './big-store.mjs';
import { bin, startServer } from './lib/processes.mjs';
import { ms, printTarget, seconds } from './lib/report.mjs';

const { db, dir } = await bigStore();

const server = await startServer(bin, ['serve', '--db', db, '--port', '0', '--log', 'off', '--rate-limit', 'off'], { ...process.env, CI: '1' });
const { url } = server;
const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
const peakRssMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;

async function fullListing() {
  let path = `/api/v1/courses/${COURSE}/gradebook/grades?limit=1000`;
  let students = 0;
  while (path) {
    const res = await fetch(url + path, { headers });
    if (res.status !== 200) throw new Error(`grades answered ${res.status}`);
    students += (await res.json()).students.length;
    path = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
  }
  return students;
}

try {
  // Warm the grade cells first (the first read after a bulk load builds them).
  await fetch(`${url}/api/v1/courses/${COURSE}/gradebook/export`, { headers }).then((r) => r.text());
  const before = peakRssMb();
  const t0 = performance.now();
  const counts = await Promise.all([fullListing(), fullListing(), fullListing()]);
  const listMs = performance.now() - t0;
  const peak = peakRssMb();
  printTarget({
    name: 'serve grades: peak RSS, 3 full listings',
    figure: `${peak.toFixed(0)} MB`,
    target: '< 600 MB',
    pass: peak < 600,
    note: `${counts[0]} students each, pages of 1000, ${seconds(listMs)} for the three; ${before.toFixed(0)} MB before them`,
  });

  const latencies = [];
  let exporting = true;
  const exportDone = fetch(`${url}/api/v1/courses/${COURSE}/gradebook/export`, { headers })
    .then((r) => r.text())
    .finally(() => {
      exporting = false;
    });
  const t1 = performance.now();
  while (exporting) {
    const start = performance.now();
    await fetch(`${url}/api/v1/health`).then((r) => r.text());
    latencies.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 10));
  }
  const csv = await exportDone;
  const exportMs = performance.now() - t1;
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  printTarget({
    name: 'serve /health p99 during an export',
    figure: ms(p(0.99)),
    target: '< 50 ms',
    pass: p(0.99) < 50,
    note: `${latencies.length} calls during a ${(csv.length / 1e6).toFixed(1)} MB export of ${seconds(exportMs)}; p50 ${p(0.5).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`,
  });
} finally {
  await server.stop();
  // A kept store (BENCH_DB) lives outside dir.
  rmSync(dir, { recursive: true, force: true });
}
