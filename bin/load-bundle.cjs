// Loads the CLI's bundle (scripts/bundle.mjs) with V8's code cache, which the build makes by
// running a few commands (scripts/code-cache.mjs). Node 20 keeps no compiled code between
// runs, for ES modules or CommonJS; a script compiled through node:vm can be given the cache,
// and then skips parsing and compiling what the cache holds: a third of a cold start.
// A cache that is missing, or that V8 refuses (another Node version, other V8 flags), costs
// only that time: the bundle is compiled from its text, as without a cache.
// CommonJS, like bin/coursebook: node starts a CommonJS program without its ES module loader.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const BUNDLE_DIR = join(__dirname, '../dist/bundle');

/** The bundle and its code cache, as the build's manifest names them, or null before a build. */
function bundleFiles() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(BUNDLE_DIR, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
  const file = join(BUNDLE_DIR, manifest.cli);
  return { file, codeCache: `${file}.v8cache` };
}

/**
 * Runs the bundle as node runs a CommonJS module, and answers its exports, the compiled
 * script (the code cache is made from it) and whether V8 refused the cache (null: none given).
 */
function loadBundle(files, { codeCache = true } = {}) {
  // The build writes the bundle in ASCII alone (scripts/bundle.mjs asciiOnly), which reads
  // the same as Latin-1 and ten times faster than as UTF-8.
  const source = readFileSync(files.file, 'latin1');
  let cachedData;
  if (codeCache) {
    try {
      cachedData = readFileSync(files.codeCache);
    } catch {
      cachedData = undefined;
    }
  }
  // Node's own CommonJS wrapper, on the first line, so the bundle's line numbers (and its
  // source map) still hold. Named by URL, as node names an ES module: stack traces and CPU
  // profiles read as they did when the bundle was one.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: pathToFileURL(files.file).href,
    cachedData,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(files.file), module, files.file, dirname(files.file));
  return { exports: module.exports, script, cacheRejected: cachedData === undefined ? null : script.cachedDataRejected };
}

module.exports = { bundleFiles, loadBundle };
