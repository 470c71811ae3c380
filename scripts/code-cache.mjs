#!/usr/bin/env node
// Makes V8's code cache for the CLI's bundle (bin/load-bundle.cjs reads it at every start).
// Run by scripts/bundle.mjs after bundling. The cache holds the bundle's top-level code and
// every function that had run when it was made, so it is made after a few commands that
// stand for the short calls scripts make in loops: help, a read as JSON and as a table, a
// write. Each runs in this process, on a store in a scratch folder, and must succeed.
// A function no command here ran is compiled on first use, as without a cache.
//
// Every start reads the whole cache, and reading it costs time in proportion to its size.
// The demo store is therefore imported by a separate process, and no export runs here: with
// their functions (1.31 MB of cache instead of 1.10 MB), a read or a write started 3 to 4 ms
// slower, while an import or an export of the demo, whose own work is most of their time,
// ran no faster (docs/decisions.md, twelfth session).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleFiles, loadBundle } from '../bin/load-bundle.cjs';

const root = resolve(import.meta.dirname, '..');
const files = bundleFiles();
if (!files) throw new Error('no dist/bundle/manifest.json: bundle first (scripts/bundle.mjs)');
const { exports: cli, script } = loadBundle(files, { codeCache: false });

const dir = mkdtempSync(join(tmpdir(), 'coursebook-code-cache-'));
const db = join(dir, 'store.db');
const sink = { write: () => true, isTTY: false };
// No user configuration, no colours: the commands must run the same on every machine.
const io = { ...cli.processIo(), stdout: sink, stderr: sink, env: { HOME: dir, PATH: process.env.PATH, NO_COLOR: '1' } };
// The built CLI in a process of its own (its cache, if any, is the last build's: V8 refuses
// a cache made for other code and compiles the bundle from its text).
execFileSync(process.execPath, [join(root, 'bin/coursebook'), '--db', db, 'import', join(root, 'data/demo.json')], {
  env: io.env,
  // Its stderr is kept for the error a failed import throws here.
  stdio: ['ignore', 'ignore', 'pipe'],
});
const commands = [
  ['--help'],
  ['--db', db, '--json', 'courses', 'list'],
  ['--db', db, 'courses', 'list'],
  [
    '--db',
    db,
    '--json',
    'gradebook',
    'final',
    'set',
    '--course',
    'crs_data101',
    '--user',
    'usr_s03',
    '--letter',
    'A',
    '--reason',
    'code cache',
    '--expected-version',
    '0',
  ],
];
try {
  for (const args of commands) {
    const code = await cli.runCli(args, io);
    if (code !== 0) throw new Error(`coursebook ${args.join(' ')} exited ${code} while making the code cache`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const temporary = `${files.codeCache}.${process.pid}.tmp`;
writeFileSync(temporary, script.createCachedData());
renameSync(temporary, files.codeCache);
process.exit(0);
