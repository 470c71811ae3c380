#!/usr/bin/env node
// Where the time of a V8 CPU profile (node --cpu-prof) goes, as Markdown: self time by
// package (hono, zod, @hono/zod-openapi, undici, better-sqlite3, ..., and our src/ folders
// by the dist/ file that ran), by file, and by function (top N each), plus how much of the
// time each package was on the stack at all.
// Usage: node bench/profile-summary.mjs FILE.cpuprofile [--title TEXT] [--top N]
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const rootUrl = pathToFileURL(root).href;
// V8's own pseudo-frames: not code of any package.
const PSEUDO = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
// Groups whose time is charged to the package that called them, in the "charged" column.
const NOT_A_PACKAGE = new Set(['node (built-in modules)', '(V8 builtins)', '(garbage collector)', '(program)']);

/** The group a frame's code belongs to: a package, one of our src/ folders, node, or V8. */
export function packageOf(url, functionName) {
  if (!url) return PSEUDO.has(functionName) ? functionName : '(V8 builtins)';
  // Node's bundled undici is what the global fetch, Request and Response load.
  if (url.startsWith('node:internal/deps/undici')) return 'undici (bundled in node: fetch, Response)';
  if (url.startsWith('node:')) return 'node (built-in modules)';
  const nodeModules = url.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) {
    const [first, second] = url.slice(nodeModules + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (url.startsWith(`${rootUrl}/dist/`)) {
    const inDist = url.slice(`${rootUrl}/dist/`.length).split('/');
    return inDist.length === 1 ? `coursebook src/${inDist[0].replace(/\.js$/, '.ts')}` : `coursebook src/${inDist[0]}/`;
  }
  if (url.startsWith(`${rootUrl}/`)) return `coursebook ${url.slice(rootUrl.length + 1)}`;
  return '(other)';
}

/** A frame's file, shortened: relative to the project, or to its package's node_modules. */
function fileOf(url) {
  if (!url || url.startsWith('node:')) return url || '(none)';
  const nodeModules = url.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) return url.slice(nodeModules + '/node_modules/'.length);
  try {
    return relative(root, fileURLToPath(url));
  } catch {
    return url;
  }
}

/** Milliseconds each sample stands for: the time until the next sample (V8's deltas are in µs). */
function sampleDurations(profile) {
  const deltas = profile.timeDeltas;
  return profile.samples.map((_, i) => (i + 1 < deltas.length ? deltas[i + 1] : 0) / 1000);
}

export function summarise(profile, { title = 'CPU profile', top = 15 } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const durations = sampleDurations(profile);

  const self = { pkg: new Map(), file: new Map(), fn: new Map() };
  const onStack = new Map();
  const attributed = new Map();
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const ms = durations[i];
    const node = nodes.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    total += ms;
    if (functionName === '(idle)') {
      idle += ms;
      return;
    }
    const pkg = packageOf(url, functionName);
    add(self.pkg, pkg, ms);
    add(self.file, `${fileOf(url)}\t${pkg}`, ms);
    add(self.fn, `${functionName || '(anonymous)'}\t${fileOf(url)}:${lineNumber + 1}\t${pkg}`, ms);
    // Each package counted once per sample, however deep it sits in the stack; and the
    // sample charged to the innermost frame of a package (not node's or V8's own code).
    const seen = new Set();
    let owner = null;
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at).callFrame;
      if (frame.functionName === '(root)') continue;
      const framePkg = packageOf(frame.url, frame.functionName);
      seen.add(framePkg);
      if (owner === null && !NOT_A_PACKAGE.has(framePkg)) owner = framePkg;
    }
    for (const p of seen) add(onStack, p, ms);
    add(attributed, owner ?? pkg, ms);
  });

  const busy = total - idle;
  const pct = (ms) => `${((100 * ms) / busy).toFixed(1)}%`;
  const f1 = (ms) => ms.toFixed(1);
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  const lines = [
    `### ${title}`,
    '',
    `${profile.samples.length.toLocaleString('en-US')} samples over ${f1(total)} ms, ${f1(idle)} ms of it idle; percentages are of the ${f1(busy)} ms not idle.`,
    '',
    '**By package.** Self: its own code ran. Charged: self, plus the node and V8 code it called',
    "(a sample goes to the innermost package frame on its stack; node's and V8's work with no",
    'package above it, such as module loading, stays where it is). On stack: it, or anything it',
    'called, ran.',
    '',
    '| package | self ms | self % | charged ms | charged % | on stack ms | on stack % |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...sorted(new Map([...self.pkg.keys(), ...attributed.keys()].map((k) => [k, attributed.get(k) ?? 0]))).map(([pkg]) => {
      const mine = self.pkg.get(pkg) ?? 0;
      const charged = attributed.get(pkg) ?? 0;
      const stacked = onStack.get(pkg) ?? 0;
      return `| ${pkg} | ${f1(mine)} | ${pct(mine)} | ${f1(charged)} | ${pct(charged)} | ${f1(stacked)} | ${pct(stacked)} |`;
    }),
    '',
    `**By file** (self time, top ${top})`,
    '',
    '| file | package | self ms | self % |',
    '|---|---|---:|---:|',
    ...sorted(self.file)
      .slice(0, top)
      .map(([key, ms]) => {
        const [file, pkg] = key.split('\t');
        return `| ${file} | ${pkg} | ${f1(ms)} | ${pct(ms)} |`;
      }),
    '',
    `**By function** (self time, top ${top})`,
    '',
    '| function | where | package | self ms | self % |',
    '|---|---|---|---:|---:|',
    ...sorted(self.fn)
      .slice(0, top)
      .map(([key, ms]) => {
        const [fn, where, pkg] = key.split('\t');
        return `| \`${fn}\` | ${where} | ${pkg} | ${f1(ms)} | ${pct(ms)} |`;
      }),
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && !['--title', '--top'].includes(args[i - 1]));
  if (!file) {
    console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [--title TEXT] [--top N]');
    process.exit(2);
  }
  const option = (name) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  process.stdout.write(summarise(profile, { title: option('--title') ?? file, top: Number(option('--top') ?? 15) }));
}
