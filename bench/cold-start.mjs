// CLI cold start (the Performance issue: at most 2.0x `node -e 0`), for a read and a write on
// the demo store. The three commands run in turn within each round, so a busy moment on a
// shared machine lands on all three alike; the first round warms the disk cache and is not
// counted. The write sets a final-grade override with an explicit expected version that
// advances every run, so each run is one accepted write (a conflict would exit non-zero and
// stop the bench).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bin, coursebook, demoDataset, scratch, timedNode } from './lib/processes.mjs';
import { median, ms, printTarget } from './lib/report.mjs';

const runs = Number(process.env.BENCH_COLD_RUNS ?? 15);
const COURSE = 'crs_data101';
// usr_s03 has no override in the demo dataset: its first override is at expected version 0.
const STUDENT = 'usr_s03';
const LETTERS = ['A', 'B+', 'B', 'C'];

const { dir, env } = scratch('cold');
const db = join(dir, 'bench.db');
coursebook(['--db', db, 'import', demoDataset], env);

const bare = [];
const read = [];
const write = [];
for (let round = 0; round <= runs; round++) {
  const counted = round > 0;
  const b = timedNode(['-e', '0'], env).ms;
  const r = timedNode([bin, '--db', db, '--json', 'courses', 'list'], env).ms;
  const setArgs = [
    'gradebook',
    'final',
    'set',
    '--course',
    COURSE,
    '--user',
    STUDENT,
    '--letter',
    LETTERS[round % LETTERS.length],
    '--reason',
    `bench run ${round}`,
  ];
  const w = timedNode([bin, '--db', db, '--json', ...setArgs, '--expected-version', String(round)], env).ms;
  if (counted) bare.push(b), read.push(r), write.push(w);
}
rmSync(dir, { recursive: true, force: true });

const floor = median(bare);
const note = `median of ${runs}`;
for (const [name, times] of [
  ['cold start, read: --json courses list', read],
  ['cold start, write: gradebook final set', write],
]) {
  const figure = median(times);
  printTarget({ name, figure: ms(figure), floor: `node -e 0: ${ms(floor)}`, ratio: figure / floor, target: '<= 2.0x', pass: figure / floor <= 2, note });
}
