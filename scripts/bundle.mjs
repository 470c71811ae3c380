#!/usr/bin/env node
// The CLI as one bundled program (the Performance issue: cold start). Run by `npm run build`
// after tsc, which stays the type checker and still writes dist/ for the tests that load
// built modules. A cold start then reads a few files instead of resolving, stat-ing and
// compiling hundreds of modules one by one. Code splitting keeps what only some commands
// need (a command group, the remote client, serve, prompts) in chunks loaded on first use.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
// Two folders down, like dist/cli/: src/cli/version.ts finds package.json at ../../ from both.
const outdir = resolve(root, 'dist/bundle');

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    coursebook: 'src/cli/index.ts',
    // serve's grading pool loads its worker by file name, next to the module that starts the pool.
    'grading-worker': 'src/serve/grading-worker.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Chunks sit beside the entries: code finds package.json and the grading worker by relative URL.
  chunkNames: '[name]-[hash]',
  // Packages with native code or optional native parts, and piscina, which starts workers from
  // its own files: these stay in node_modules and are loaded from there.
  external: ['better-sqlite3', 'pg', 'pg-native', 'piscina'],
  mainFields: ['module', 'main'],
  // CommonJS packages in the bundle (commander, jmespath, undici, ...) call require() for
  // node's own modules; an ES module has no require of its own.
  banner: { js: "import { createRequire as __coursebookRequire } from 'node:module'; const require = __coursebookRequire(import.meta.url);" },
  // For --enable-source-maps and for mapping CPU profiles back to packages; never read otherwise.
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  // Error and class names stay as written (commander names its errors after their class).
  keepNames: true,
});
