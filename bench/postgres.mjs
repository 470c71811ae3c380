#!/usr/bin/env node
// PostgreSQL beside SQLite (#18), on a throwaway cluster this script starts
// (bench/lib/pg-cluster.mjs: fsync and synchronous commit on, as a real server would run).
// Needs a build (npx tsc -p tsconfig.build.json) and PostgreSQL's server binaries.
//   node bench/postgres.mjs [serve] [export] [instances] [import]     (none: all four)
//
// serve      `coursebook serve` on a SQLite file and on a PostgreSQL database, same data:
//            GET of the demo course's assignment list and PUT of a final-grade override, at
//            50 connections with autocannon (req/s, for the record), and one request at a
//            time (p50 and p99). Target: PostgreSQL's single-request latency within 3x of
//            SQLite's.
// export     the 10,000 x 200 gradebook export through the CLI (bench/lib/pg-big-store.mjs,
//            built the same way on both), steady state (median of BENCH_RUNS, default 3).
//            Target: PostgreSQL within 2x of SQLite. The two CSVs must be the same bytes,
//            else the figure is REFUSED (it would time a wrong export).
// import     `coursebook import` of the seeding benchmark's dataset (bench/dataset.mjs: 1,000
//            students x 25 graded submissions, 27,000 records) into a new store, median of
//            BENCH_RUNS; for the record (no target).
// instances  final-grade PUT throughput of two serve instances on one PostgreSQL database
//            (25 connections each, disjoint students) against one instance (50
//            connections). Target: two >= 1.6x one.
// BENCH_SECONDS (default 10) per measured load, BENCH_WARMUP_SECONDS (default 3),
// BENCH_LATENCY_REQUESTS (default 500), BENCH_STUDENTS and BENCH_ITEMS (the export's store).
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { writeBenchDataset as writeSeedDataset } from './dataset.mjs';
import { COURSE as BIG_COURSE, buildBigStore, ITEMS, STUDENTS } from './lib/pg-big-store.mjs';
import { createDatabase, startPostgres } from './lib/pg-cluster.mjs';
import { finalGradeWriter, startServe, writeBenchDataset } from './lib/pg-support.mjs';
import { bin, coursebook, demoDataset, scratch, timedNode } from './lib/processes.mjs';
import { loadAverage, median, ms, perSecond, printTarget, quantile, seconds, statusMix } from './lib/report.mjs';

const pieces = ['serve', 'export', 'instances', 'import'];
// Run alone, its arguments choose its pieces; imported by bench/run.mjs (npm run bench --
// postgres), all of them.
const runAlone = process.argv[1] !== undefined && import.meta.filename === resolve(process.argv[1]);
const chosen = runAlone ? process.argv.slice(2) : [];
const unknown = chosen.filter((name) => !pieces.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${pieces.join(', ')} (none: all of them)`);
  process.exit(2);
}
const runs = (name) => chosen.length === 0 || chosen.includes(name);

const loadSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const latencyRequests = Number(process.env.BENCH_LATENCY_REQUESTS ?? 500);
const exportRuns = Number(process.env.BENCH_RUNS ?? 3);
const connections = 50;
const STUDENTS_TO_WRITE = 1000;

// bench/run.mjs prints the header when it runs this piece.
if (runAlone) {
  console.log(`# node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}`);
  console.log('# name | figure | floor | ratio | target | verdict');
}
const cluster = await startPostgres();
const { dir, env } = scratch('pg');
let stores = 0;
const newDatabase = () => createDatabase(cluster.url, `bench_${++stores}`);
console.log(`# PostgreSQL cluster: fsync ${cluster.durable ? 'on' : 'off (BENCH_PG_FAST=1)'}; SQLite: WAL, synchronous=NORMAL`);

/** A store with the demo and the 1,000-student course, on a SQLite file or a new PostgreSQL database. */
async function servedStore(dialect) {
  const location = dialect === 'sqlite' ? join(dir, `serve-${++stores}.db`) : await newDatabase();
  coursebook(['--db', location, 'import', demoDataset], env);
  coursebook(['--db', location, 'import', writeBenchDataset(dir, { students: STUDENTS_TO_WRITE })], env);
  return location;
}

/** A warm-up, then the measured load; a writer settles its versions in between. */
async function autocannonRun(url, options, writer = null) {
  await autocannon({ url, connections, duration: warmupSeconds, ...options() });
  await writer?.settle(url);
  return autocannon({ url, connections, duration: loadSeconds, ...options() });
}

/** One request at a time, after a warm-up: each request's time in ms. */
async function oneAtATime(request) {
  for (let i = 0; i < 50; i++) await request(-1 - i);
  const times = [];
  for (let i = 0; i < latencyRequests; i++) times.push(await request(i));
  return times;
}

// --- serve: throughput and single-request latency ---------------------------------------------
if (runs('serve')) {
  console.log(`# serve: load average ${loadAverage()} (1, 5, 15 min)`);
  const getPath = '/api/v1/courses/crs_data101/assignments';
  const getHeaders = { authorization: 'Bearer demo-instructor-token' };
  const figures = {};
  for (const dialect of ['sqlite', 'postgres']) {
    const server = await startServe(['--db', await servedStore(dialect)], env);
    try {
      const get = await autocannonRun(server.url + getPath, () => ({ headers: getHeaders }));
      // Writers of the load and of the latency loop cycle through students of their own.
      const loadWriter = finalGradeWriter(1, STUDENTS_TO_WRITE / 2);
      const put = await autocannonRun(server.url, () => ({ requests: loadWriter.requests() }), loadWriter);
      const getTimes = await oneAtATime(async () => {
        const start = performance.now();
        const res = await fetch(server.url + getPath, { headers: getHeaders });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET ${getPath} answered ${res.status}`);
        return performance.now() - start;
      });
      const latencyWriter = finalGradeWriter(STUDENTS_TO_WRITE / 2 + 1, STUDENTS_TO_WRITE);
      const putTimes = await oneAtATime((n) => latencyWriter.once(server.url, n + 50));
      figures[dialect] = { get, put, getTimes, putTimes };
    } finally {
      await server.stop();
    }
  }
  const { sqlite, postgres } = figures;
  for (const [label, key] of [
    ['GET course assignments', 'get'],
    ['PUT final grade', 'put'],
  ]) {
    const mix = statusMix(postgres[key]);
    const sound = mix.okShare >= 0.99 && statusMix(sqlite[key]).okShare >= 0.99;
    printTarget({
      name: `pg serve ${label}, ${connections} conn`,
      figure: perSecond(postgres[key].requests.average, 'req'),
      floor: `SQLite: ${perSecond(sqlite[key].requests.average, 'req')}`,
      ratio: postgres[key].requests.average / sqlite[key].requests.average,
      pass: sound ? 'info' : null,
      note: `${loadSeconds} s; p99 ${ms(postgres[key].latency.p99)} (SQLite ${ms(sqlite[key].latency.p99)}); ${mix.text}`,
    });
  }
  for (const [label, key] of [
    ['GET course assignments', 'getTimes'],
    ['PUT final grade', 'putTimes'],
  ]) {
    for (const q of [0.5, 0.99]) {
      const pg = quantile(postgres[key], q);
      const lite = quantile(sqlite[key], q);
      printTarget({
        name: `pg serve ${label}, one at a time, p${q * 100}`,
        figure: ms(pg),
        floor: `SQLite: ${ms(lite)}`,
        ratio: pg / lite,
        target: '<= 3.0x',
        pass: pg / lite <= 3,
        note: `${latencyRequests} requests after 50 to warm up`,
      });
    }
  }
}

// --- export: 10,000 x 200 through the CLI -------------------------------------------------------
if (runs('export')) {
  console.log(`# export: load average ${loadAverage()} (1, 5, 15 min)`);
  const shape = `${STUDENTS.toLocaleString('en-US')} x ${ITEMS}`;
  const results = {};
  for (const dialect of ['sqlite', 'postgres']) {
    const location = dialect === 'sqlite' ? join(dir, 'big.db') : await newDatabase();
    const built = await buildBigStore(location);
    const out = join(dir, `export-${dialect}.csv`);
    const exportOnce = () => timedNode([bin, '--db', location, 'gradebook', 'export', '--course', BIG_COURSE, '--out', out], env).ms;
    const first = exportOnce();
    const steady = Array.from({ length: exportRuns }, exportOnce);
    results[dialect] = { built, first, steady: median(steady), runs: steady, csv: await readFile(out) };
    if (dialect === 'sqlite') rmSync(location, { force: true });
  }
  const { sqlite, postgres } = results;
  const same = sqlite.csv.equals(postgres.csv);
  const ratio = postgres.steady / sqlite.steady;
  printTarget({
    name: `pg export ${shape}, steady state`,
    figure: seconds(postgres.steady),
    floor: `SQLite: ${seconds(sqlite.steady)}`,
    ratio,
    target: '<= 2.0x',
    pass: same ? ratio <= 2 : null,
    note: same
      ? `runs ${postgres.runs.map(seconds).join(', ')}; CSV ${(postgres.csv.length / 1e6).toFixed(1)} MB, the same bytes on both`
      : `the PostgreSQL CSV differs from SQLite's (${postgres.csv.length} vs ${sqlite.csv.length} bytes): not a figure of the export`,
  });
  printTarget({
    name: `pg export ${shape}, first after bulk load`,
    figure: seconds(postgres.first),
    floor: `SQLite: ${seconds(sqlite.first)}`,
    ratio: postgres.first / sqlite.first,
    pass: same ? 'info' : null,
    note: `builds the grade cells; stores built in ${seconds(postgres.built.ms)} (PostgreSQL) and ${seconds(sqlite.built.ms)} (SQLite), ${postgres.built.submissions.toLocaleString('en-US')} submissions`,
  });
}

// --- instances: two serve processes on one database against one ---------------------------------
if (runs('instances')) {
  console.log(`# instances: load average ${loadAverage()} (1, 5, 15 min)`);
  const oneInstance = async () => {
    const server = await startServe(['--db', await servedStore('postgres')], env);
    try {
      const writer = finalGradeWriter(1, STUDENTS_TO_WRITE);
      return [await autocannonRun(server.url, () => ({ requests: writer.requests() }), writer)];
    } finally {
      await server.stop();
    }
  };
  const twoInstances = async () => {
    const location = await servedStore('postgres');
    const servers = await Promise.all([startServe(['--db', location], env), startServe(['--db', location], env)]);
    try {
      const half = STUDENTS_TO_WRITE / 2;
      const writers = [finalGradeWriter(1, half), finalGradeWriter(half + 1, STUDENTS_TO_WRITE)];
      const each = (i) => autocannon({ url: servers[i].url, connections: connections / 2, duration: warmupSeconds, requests: writers[i].requests() });
      await Promise.all([each(0), each(1)]);
      await Promise.all(writers.map((writer, i) => writer.settle(servers[i].url)));
      return await Promise.all(
        servers.map((server, i) => autocannon({ url: server.url, connections: connections / 2, duration: loadSeconds, requests: writers[i].requests() })),
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  };
  const one = await oneInstance();
  const two = await twoInstances();
  const rate = (results) => results.reduce((sum, r) => sum + r.requests.average, 0);
  const sound = [...one, ...two].every((r) => statusMix(r).okShare >= 0.99);
  const ratio = rate(two) / rate(one);
  printTarget({
    name: 'pg two instances, PUT final grade',
    figure: perSecond(rate(two), 'req'),
    floor: `one instance: ${perSecond(rate(one), 'req')}`,
    ratio,
    target: '>= 1.6x',
    pass: sound ? ratio >= 1.6 : null,
    note: `${connections} conn in all, ${loadSeconds} s; ${cpus().length} cores shared by the load generator, the instances and PostgreSQL; ${two.map((r) => statusMix(r).text).join(' | ')}`,
  });
}

// --- import: a 27,000-record dataset into a new store ----------------------------------------------
if (runs('import')) {
  console.log(`# import: load average ${loadAverage()} (1, 5, 15 min)`);
  const dataset = writeSeedDataset(dir);
  const times = { sqlite: [], postgres: [] };
  for (let run = 0; run < exportRuns; run++) {
    for (const dialect of ['sqlite', 'postgres']) {
      const location = dialect === 'sqlite' ? join(dir, `import-${run}.db`) : await newDatabase();
      times[dialect].push(timedNode([bin, '--db', location, 'import', dataset.path], env).ms);
      if (dialect === 'sqlite') rmSync(location, { force: true });
    }
  }
  const pg = median(times.postgres);
  const lite = median(times.sqlite);
  printTarget({
    name: `pg import ${dataset.records.toLocaleString('en-US')} records`,
    figure: seconds(pg),
    floor: `SQLite: ${seconds(lite)}`,
    ratio: pg / lite,
    pass: 'info',
    note: `CLI wall, median of ${exportRuns}: ${times.postgres.map(seconds).join(', ')} (PostgreSQL), ${times.sqlite.map(seconds).join(', ')} (SQLite)`,
  });
}

cluster.stop();
rmSync(dir, { recursive: true, force: true });
