#!/usr/bin/env node
// Benchmarks (npm run bench; npm run bench -- serve seed ...). Speed targets live here,
// never in tests. Each target prints one line (bench/lib/report.mjs):
//   name | figure | floor | ratio | target | PASS/MISS
// with its floor measured in the same run, so "before" and "after" figures come from the
// same script. The README keeps the measured figures.
import { cpus } from 'node:os';
import { join } from 'node:path';
import { loadAverage } from './lib/report.mjs';

// Each piece is a module that measures on import (each can also run alone with node).
const pieces = {
  'cold-start': 'cold-start.mjs',
  serve: 'serve-api.mjs',
  seed: 'seed.mjs',
  spawn: 'spawn.mjs',
  gradebook: 'gradebook.mjs',
  'serve-gradebook': 'serve-gradebook.mjs',
  // #18: PostgreSQL beside SQLite on a throwaway cluster (needs the server binaries).
  postgres: 'postgres.mjs',
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in pieces));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(pieces).join(', ')} (none: all of them)`);
  process.exit(2);
}

console.log(`# node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}`);
console.log('# name | figure | floor | ratio | target | verdict');
for (const [name, file] of Object.entries(pieces)) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  console.log(`# ${name}: load average ${loadAverage()} (1, 5, 15 min)`);
  await import(join(import.meta.dirname, file));
}
