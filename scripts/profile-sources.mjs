#!/usr/bin/env node
// A V8 CPU profile of the bundled CLI (node --cpu-prof bin/coursebook ...) names every frame
// dist/bundle/<chunk>.js. This rewrites each frame through the bundle's source maps to the
// file it came from: node_modules/<package>/... for a package, and dist/<folder>/<file>.js
// (tsc's layout) for our src/, the names bench/profile-summary.mjs groups by, so a profile of
// the bundle reads by package like one of the unbundled build. A chunk's top-level code holds
// the top-level statements of every module in it: its samples are split by the source of the
// lines they hit (V8's positionTicks).
// Usage: node scripts/profile-sources.mjs IN.cpuprofile OUT.cpuprofile
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node scripts/profile-sources.mjs IN.cpuprofile OUT.cpuprofile');
  process.exit(2);
}

/** A bundle file's source map and lines, or null (not ours, or built without maps). */
function bundleFile(url, cache) {
  if (!cache.has(url)) {
    const file = url.startsWith('file:') ? fileURLToPath(url) : null;
    cache.set(
      url,
      file && existsSync(`${file}.map`)
        ? { dir: dirname(file), map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))), lines: readFileSync(file, 'utf8').split('\n') }
        : null,
    );
  }
  return cache.get(url);
}

/** Where a source of the map lives, as a file URL: our src/ files under tsc's dist/ names. */
function originalUrl(dir, source) {
  const file = resolve(dir, source);
  const inSrc = relative(resolve(root, 'src'), file);
  if (!inSrc.startsWith('..')) return pathToFileURL(resolve(root, 'dist', inSrc.replace(/\.ts$/, '.js'))).href;
  return pathToFileURL(file).href;
}

/** The original position of a generated one (0-based line and column), or null. */
function original(bundle, line, column) {
  const entry = bundle.map.findEntry(line, column);
  return entry?.originalSource ? { url: originalUrl(bundle.dir, entry.originalSource), line: entry.originalLine, column: entry.originalColumn } : null;
}

/** The original position of a 1-based generated line, at its first character that is not blank. */
function originalOfLine(bundle, line) {
  const text = bundle.lines[line - 1] ?? '';
  return original(bundle, line - 1, Math.max(0, text.search(/\S/)));
}

const profile = JSON.parse(readFileSync(input, 'utf8'));
const bundles = new Map();
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
let nextId = Math.max(...profile.nodes.map((n) => n.id)) + 1;
/** Samples of a node handed to its copies for other sources: node id -> queue of [copy id, count]. */
const handOver = new Map();
const copies = [];
let mapped = 0;

for (const node of profile.nodes) {
  const frame = node.callFrame;
  const bundle = frame.url ? bundleFile(frame.url, bundles) : null;
  if (!bundle || frame.lineNumber < 0) continue;
  const bySource = new Map();
  for (const { line, ticks } of node.positionTicks ?? []) {
    const at = originalOfLine(bundle, line);
    if (at) bySource.set(at.url, (bySource.get(at.url) ?? 0) + ticks);
  }
  const start = original(bundle, frame.lineNumber, Math.max(0, frame.columnNumber));
  const ranked = [...bySource.entries()].sort((a, b) => b[1] - a[1]);
  const primary = ranked[0]?.[0] ?? start?.url;
  if (!primary) continue;
  frame.url = primary;
  if (start?.url === primary) {
    frame.lineNumber = start.line;
    frame.columnNumber = start.column;
  }
  mapped++;
  if (ranked.length < 2) continue;
  const queue = [];
  for (const [url, ticks] of ranked.slice(1)) {
    const copy = { id: nextId++, callFrame: { ...frame, url, lineNumber: 0, columnNumber: 0 }, hitCount: ticks, children: [] };
    copies.push(copy);
    parentOf.get(node)?.children.push(copy.id);
    queue.push([copy.id, ticks]);
  }
  handOver.set(node.id, queue);
}
profile.nodes.push(...copies);
// Samples carry no line of their own: a node's samples go to its copies in the proportions of the ticks.
profile.samples = profile.samples.map((id) => {
  const queue = handOver.get(id);
  const next = queue?.find((entry) => entry[1] > 0);
  if (!next) return id;
  next[1]--;
  return next[0];
});
writeFileSync(output, JSON.stringify(profile));
console.log(`${mapped} of ${profile.nodes.length - copies.length} frames mapped to their sources (${copies.length} split off by line) -> ${output}`);
