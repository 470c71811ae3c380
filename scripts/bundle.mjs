#!/usr/bin/env node
// The CLI as one bundled program (the Performance issue: cold start). Run by `npm run build`
// after tsc, which stays the type checker and still writes dist/ for the tests that load
// built modules. A cold start then reads a few files instead of resolving, stat-ing and
// compiling hundreds of modules one by one. Code splitting keeps what only some commands
// need (a command group, a route module, serve, prompts) in chunks loaded on first use.
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
// Two folders down, like dist/cli/: src/cli/version.ts finds package.json at ../../ from both.
const outdir = resolve(root, 'dist/bundle');

/**
 * zod's `z` namespace carries every locale of its error messages (360 KB, half of zod in the
 * bundle, parsed at every start). Nothing here reads z.locales, and zod installs its English
 * messages from locales/en.js itself, so the index offers English only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * better-sqlite3's JavaScript is bundled; its native addon stays in node_modules. The package
 * finds the addon with `bindings`, which searches a dozen folders and reads a stack trace
 * (about 20 ms of every start); the addon is always at build/Release in the package, so it is
 * required from there.
 */
const sqliteAddon = {
  name: 'sqlite-addon',
  setup(build) {
    build.onResolve({ filter: /^bindings$/ }, () => ({ path: 'bindings', namespace: 'sqlite-addon' }));
    build.onLoad({ filter: /.*/, namespace: 'sqlite-addon' }, () => ({
      contents: "module.exports = (name) => require('better-sqlite3/build/Release/' + name);",
      loader: 'js',
    }));
  },
};

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
  // pg (with its optional native pg-native) and piscina, which starts workers from its own
  // files, stay in node_modules and are loaded from there. So does undici, which only the
  // remote client loads, with `await import('undici')`: esbuild answers import() of a
  // CommonJS package split into its own chunk with the exports as `default` alone, where
  // node gives them by name (`request`).
  external: ['pg', 'pg-native', 'piscina', 'undici'],
  mainFields: ['module', 'main'],
  plugins: [zodEnglishOnly, sqliteAddon],
  // CommonJS packages in the bundle (commander, better-sqlite3, undici, ...) call require()
  // for node's own modules and the addon; an ES module has no require of its own.
  banner: { js: "import { createRequire as __coursebookRequire } from 'node:module'; const require = __coursebookRequire(import.meta.url);" },
  // No keepNames: naming every function again costs 6% of a start. Nothing reads a class's
  // name but for messages: commander's and jose's errors take theirs from the class, and
  // coursebook prints neither (it answers commander's by their code; jose's refuse a credential).
  // For --enable-source-maps and for mapping CPU profiles back to packages; never read otherwise.
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
});
