// Seeding (the Performance issue: at least 0.5x the floor): records per second of
// `coursebook import` into a new store file, and of `coursebook serve --memory --seed` until
// it listens, for the generated 1,000 students x 25 graded submissions (bench/dataset.mjs).
// The floor is bench/raw-insert.mjs, a child process like the CLI: parse the same file,
// create the same schema (copied from a store openStore made), insert the same rows with
// prepared statements in one transaction, into a file and into :memory: respectively.
// Every figure is spawn to exit (or to the listening line), median of BENCH_SEED_RUNS.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { writeBenchDataset } from './dataset.mjs';
import { bin, coursebook, root, scratch, startServer, timedNode } from './lib/processes.mjs';
import { median, perSecond, printTarget } from './lib/report.mjs';

const { openStore } = await import(join(root, 'dist/store/db.js'));
const runs = Number(process.env.BENCH_SEED_RUNS ?? 5);
const rawInsert = join(root, 'bench/raw-insert.mjs');

const { dir, env } = scratch('seed');
const dataset = writeBenchDataset(dir);

// The store's schema as openStore leaves a new file: tables, indexes and triggers in the
// order they were made (sqlite_sequence is SQLite's own), and the schema version.
const schemaStore = await openStore(join(dir, 'schema.db'));
const schemaPath = join(dir, 'schema.json');
writeFileSync(
  schemaPath,
  JSON.stringify({
    ddl: (await schemaStore.all("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name <> 'sqlite_sequence' ORDER BY rowid")).map((r) => r.sql),
    userVersion: (await schemaStore.get('PRAGMA user_version')).user_version,
  }),
);
await schemaStore.close();

/** Every table's rows, in one text per table, to show the floor wrote what the import wrote. */
function tableContents(path) {
  const db = new Database(path, { readonly: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    return Object.fromEntries(names.map((name) => [name, JSON.stringify(db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).raw().all())]));
  } finally {
    db.close();
  }
}

// The import also saves each student's grade cell (a packed cache of their submissions,
// src/store/grade-cells.ts) at the end; the floor writes none, which only makes it faster.
const CACHE_TABLES = new Set(['grade_cells']);

function assertSameRows(importedPath, rawPath) {
  const imported = tableContents(importedPath);
  const raw = tableContents(rawPath);
  for (const t of CACHE_TABLES) {
    delete imported[t];
    delete raw[t];
  }
  const differing = Object.keys({ ...imported, ...raw }).filter((t) => imported[t] !== raw[t]);
  if (differing.length > 0)
    throw new Error(`seed bench: the floor did not write what the import wrote (tables ${differing.join(', ')}); fix bench/raw-insert.mjs`);
}

const importMs = [];
const rawFileMs = [];
const serveMs = [];
const rawMemoryMs = [];
for (let round = 0; round < runs; round++) {
  const imported = join(dir, `import-${round}.db`);
  const raw = join(dir, `raw-${round}.db`);
  importMs.push(timedNode([bin, '--db', imported, 'import', dataset.path], env).ms);
  rawFileMs.push(timedNode([rawInsert, dataset.path, raw, schemaPath], env).ms);
  if (round === 0) assertSameRows(imported, raw);
  for (const path of [imported, raw]) for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });

  const start = process.hrtime.bigint();
  // --no-seed-cache: this measures the import (bench/spawn.mjs measures starts from the cache).
  const server = await startServer(bin, ['serve', '--memory', '--seed', dataset.path, '--port', '0', '--log', 'off', '--no-seed-cache'], env);
  serveMs.push(Number(process.hrtime.bigint() - start) / 1e6);
  await server.stop();
  rawMemoryMs.push(timedNode([rawInsert, dataset.path, ':memory:', schemaPath], env).ms);
}
// One more import is not counted: it only checks that the CLI's figure was a whole import.
const summary = JSON.parse(coursebook(['--db', join(dir, 'check.db'), '--json', 'import', dataset.path], env));
const written = Object.values(summary).reduce((n, v) => n + v, 0);
if (written !== dataset.records) throw new Error(`seed bench: the import wrote ${written} records, the dataset has ${dataset.records}`);
rmSync(dir, { recursive: true, force: true });

const rate = (times) => dataset.records / (median(times) / 1000);
const note = `${dataset.records.toLocaleString('en-US')} records, median of ${runs}, spawn to exit`;
for (const [name, times, floorName, floorTimes, extra] of [
  ['seed: coursebook import', importMs, 'raw insert, file', rawFileMs, ''],
  ['seed: serve --memory --seed', serveMs, 'raw insert, :memory:', rawMemoryMs, ' (serve: to listening)'],
]) {
  const figure = rate(times);
  const floor = rate(floorTimes);
  printTarget({
    name,
    figure: perSecond(figure, 'rec'),
    floor: `${floorName}: ${perSecond(floor, 'rec')}`,
    ratio: figure / floor,
    target: '>= 0.5x',
    pass: figure / floor >= 0.5,
    note: note + extra,
  });
}
