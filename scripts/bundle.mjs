#!/usr/bin/env node
// The CLI as one bundled program (the Performance issue: cold start). Run by `npm run build`
// after scripts/transpile.mjs, which writes dist/ module by module for the tests that load
// built modules (tsc is the type checker only, in `npm run lint`). A cold start then reads one file and V8's code cache for it (made here, by
// scripts/code-cache.mjs) instead of resolving, stat-ing and compiling hundreds of modules one
// by one; what only some commands need (a command group, a route module, serve, prompts) is
// run on first use.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
 * commander requires node:child_process when it loads, for subcommands that are separate
 * executables (coursebook has none). Loading child_process (and the net and dgram modules
 * it brings) cost every start 3 to 5 ms; it is now required only if commander spawns.
 */
const commanderSpawnOnDemand = {
  name: 'commander-spawn-on-demand',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const eager = "const childProcess = require('node:child_process');";
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(eager)) throw new Error(`commander's command.js no longer starts with ${eager}: check the plugin`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
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

/**
 * The bundle as ASCII alone. Text with a single other character is decoded into a string of
 * two bytes a character: reading the 3 MB bundle then takes 20 ms instead of 3. esbuild
 * writes strings and names ASCII (charset: 'ascii') but keeps comments, and a regular
 * expression's characters, as they were: those are written as \\uXXXX escapes, which mean the
 * same character in a regular expression and are only text in a comment.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  // Without the u flag the expression matches UTF-16 units: a surrogate pair becomes two escapes.
  const ascii = text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

rmSync(outdir, { recursive: true, force: true });

/** What both bundles share: the packages bundled or left in node_modules, the plugins, the maps. */
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // pg (with its optional native pg-native) and piscina, which starts workers from its own
  // files, stay in node_modules and are required from there. So does undici, which only the
  // remote client loads; kysely, which only a PostgreSQL store loads; and iconv-lite and
  // chardet, which only the editor prompt's package loads. Those three were 1.2 MB of a
  // 3.1 MB bundle that every start reads whole (V8 needs the text beside the code cache):
  // 3 to 6% of a start.
  external: ['pg', 'pg-native', 'piscina', 'undici', 'kysely', 'iconv-lite', 'chardet'],
  mainFields: ['module', 'main'],
  plugins: [zodEnglishOnly, sqliteAddon, commanderSpawnOnDemand],
  // No keepNames: naming every function again costs 6% of a start. Nothing reads a class's
  // name but for messages: commander's and jose's errors take theirs from the class, and
  // coursebook prints neither (it answers commander's by their code; jose's refuse a credential).
  // For --enable-source-maps and for mapping CPU profiles back to packages; never read otherwise.
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  charset: 'ascii',
  logLevel: 'warning',
  metafile: true,
};

/**
 * The CLI: one CommonJS file, so that bin/load-bundle.cjs can compile it with V8's code
 * cache (Node 20 offers none for ES modules). Everything is in the file, but a module that
 * is imported with import() is still only run when a command imports it (esbuild wraps
 * it in an init function): a command runs its own group and the routes it asks, nothing
 * else. Its name carries its content hash: a code cache is only ever used with the exact
 * text it was made from (V8 itself checks no more than the length).
 */
const cli = await build({
  ...common,
  entryPoints: { coursebook: 'src/cli/index.ts' },
  entryNames: '[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // import() of a package left in node_modules becomes require(): a script compiled with
  // node:vm has no module loader of its own for import().
  supported: { 'dynamic-import': false },
  // Modules find package.json and the grading worker relative to their own URL: here, the
  // bundle's.
  define: { 'import.meta.url': '__coursebookModuleUrl' },
  banner: { js: "var __coursebookModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// serve's grading pool starts its worker threads from this file, beside the CLI's bundle.
await build({
  ...common,
  entryPoints: { 'grading-worker': 'src/serve/grading-worker.ts' },
  format: 'esm',
  // CommonJS packages in the bundle call require() for node's own modules; an ES module has
  // no require of its own.
  banner: { js: "import { createRequire as __coursebookRequire } from 'node:module'; const require = __coursebookRequire(import.meta.url);" },
});

const cliFile = Object.entries(cli.metafile.outputs).find(([, out]) => out.entryPoint === 'src/cli/index.ts')?.[0];
if (!cliFile) throw new Error('esbuild named no output for src/cli/index.ts');
asciiOnly(join(root, cliFile));
writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify({ cli: basename(cliFile) })}\n`);

// The code cache, made by running a few commands in a fresh node (its flags must be those the
// CLI runs with: V8 refuses a cache made under other flags).
const made = spawnSync(process.execPath, [join(root, 'scripts/code-cache.mjs')], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: '' },
});
if (made.status !== 0) throw new Error('scripts/code-cache.mjs failed');
