/**
 * What a cold start of the built binary runs (the Performance issue). The bundle is one file
 * (scripts/bundle.mjs), but esbuild wraps every module that is reached through import() in an
 * init function named after its source (`"src/api/routes/courses.ts"() {...}`), run when a
 * command first imports it; only the entry's own static imports (the program, its Io, the
 * command catalog) run at every start. V8's coverage (NODE_V8_COVERAGE) names the functions
 * that ran, so it says which modules a run evaluated. A command runs its own group and the
 * route modules its requests reach; help runs no command module and no zod; local mode never
 * loads the remote client's undici (left in node_modules), serve's HTTP server, JWT or prompt
 * packages.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledBuild } from '../../src/serve/seed-cache.js';
import { BIN, ROOT } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

const BUNDLE_URL = pathToFileURL(join(ROOT, 'dist/bundle', JSON.parse(readFileSync(join(ROOT, 'dist/bundle/manifest.json'), 'utf8')).cli)).href;

let demo: CliStore;
beforeAll(async () => {
  demo = await cliStore();
});
afterAll(() => demo.cleanup());

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

/**
 * What one run evaluated: the modules of the bundle whose init function ran (src/... files,
 * and packages by name), and the packages it required from node_modules itself (those the
 * bundle leaves there).
 */
function loadedSources(args: string[], env: Record<string, string> = {}): { code: number | null; src: string[]; packages: string[]; builtins: string[] } {
  const coverage = mkdtempSync(join(tmpdir(), 'coursebook-coverage-'));
  try {
    const run = spawnSync(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...demo.env, ...env, CI: '1', NODE_V8_COVERAGE: coverage },
    });
    const sources = new Set<string>();
    const builtins = new Set<string>();
    for (const name of readdirSync(coverage)) {
      for (const script of (JSON.parse(readFileSync(join(coverage, name), 'utf8')) as Coverage).result) {
        if (script.url.startsWith('node:')) builtins.add(script.url);
        if (script.url === BUNDLE_URL) {
          for (const fn of script.functions) if (/^(src|node_modules)\//.test(fn.functionName) && fn.ranges[0]!.count > 0) sources.add(fn.functionName);
        } else if (script.url.includes('/node_modules/')) sources.add(script.url);
      }
    }
    const packages = new Set([...sources].flatMap((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1] ?? []));
    return { code: run.status, src: [...sources].filter((s) => s.startsWith('src/')), packages: [...packages].sort(), builtins: [...builtins] };
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
}

describe('a cold start of the bundle', () => {
  it('`--help` loads no command module, no schema and no zod', () => {
    const run = loadedSources(['--help']);
    expect(run.code).toBe(0);
    // The catalog and its examples are the entry's own imports (always run, so not listed).
    expect(run.src.filter((s) => s.startsWith('src/commands/')).sort()).toEqual(['src/commands/gradebook-setup-change.ts']);
    expect(run.src.filter((s) => s.startsWith('src/schemas/') || s.startsWith('src/api/'))).toEqual([]);
    expect(run.packages).toEqual(['chalk', 'commander']);
  });

  it('a local read loads its group, the one route module it asks, and nothing of remote, serve, JWT or prompts', () => {
    const run = loadedSources(['--db', demo.db, '--json', 'courses', 'list']);
    expect(run.code).toBe(0);
    expect(run.src.filter((s) => s.startsWith('src/api/routes/'))).toEqual(['src/api/routes/courses.ts']);
    expect(run.src.filter((s) => /^src\/commands\/(?!catalog|examples|gradebook-setup-change)/.test(s)).sort()).toEqual([
      'src/commands/content-lifecycle.ts',
      'src/commands/course-sync.ts',
      'src/commands/courses.ts',
      'src/commands/readiness.ts',
    ]);
    // The prompts' checks (and the gradebook and template schemas they use) wait for a prompt.
    expect(run.src).not.toContain('src/cli/prompt.ts');
    expect(run.src).not.toContain('src/cli/answer-checks.ts');
    expect(run.src).not.toContain('src/schemas/gradebook.ts');
    // Courses and modules have their own schemas: the rest of the content's (blocks, lessons,
    // assignments, rubrics, submissions; about 5 ms to construct) are not built for a list.
    expect(run.src).toContain('src/schemas/courses.ts');
    expect(run.src).not.toContain('src/schemas/content.ts');
    // A read makes no id and hashes nothing: Node's crypto modules (about 4 ms to load) stay
    // unloaded; so does child_process, which commander would load for executable subcommands.
    expect(run.builtins).not.toContain('node:crypto');
    expect(run.builtins).not.toContain('node:child_process');
    for (const notHere of ['undici', '@hono/node-server', 'jose', '@inquirer/prompts', 'jmespath', 'csv-parse']) expect(run.packages).not.toContain(notHere);
    expect(run.src).not.toContain('src/serve/server.ts');
  });

  it("a config file is checked with the config file's schema alone (zod's mini build): no other schema, no Hono, none without a file", () => {
    const home = mkdtempSync(join(tmpdir(), 'coursebook-config-'));
    try {
      const env = { XDG_CONFIG_HOME: home };
      const without = loadedSources(['config', 'list'], env);
      expect(without.code).toBe(0);
      expect(without.src.filter((s) => s.startsWith('src/schemas/'))).toEqual(['src/schemas/config-keys.ts']);
      expect(without.packages).not.toContain('zod');
      mkdirSync(join(home, 'coursebook'));
      writeFileSync(join(home, 'coursebook', 'config.json'), JSON.stringify({ profiles: { demo: { db: demo.db } } }));
      const list = loadedSources(['config', 'list'], env);
      expect(list.code).toBe(0);
      expect(list.src.filter((s) => s.startsWith('src/schemas/')).sort()).toEqual(['src/schemas/config-file.ts', 'src/schemas/config-keys.ts']);
      for (const notHere of ['hono', '@hono/zod-openapi', 'undici']) expect(list.packages).not.toContain(notHere);
      const read = loadedSources(['--profile', 'demo', '--json', 'courses', 'list'], env);
      expect(read.code).toBe(0);
      expect(read.src).toContain('src/schemas/config-file.ts');
      expect(read.src).not.toContain('src/schemas/content.ts');
      expect(read.packages).not.toContain('undici');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("a local write of a final grade loads its own routes and schemas alone, not the gradebook setup's", () => {
    const run = loadedSources([
      '--db',
      demo.db,
      'gradebook',
      'final',
      'set',
      '-c',
      'crs_data101',
      '--user',
      'usr_s03',
      '--letter',
      'B',
      '--reason',
      'bundle test',
    ]);
    expect(run.code).toBe(0);
    expect(run.src.filter((s) => s.startsWith('src/api/routes/'))).toEqual(['src/api/routes/final-grades.ts']);
    expect(run.src).toContain('src/schemas/final-grades.ts');
    expect(run.src).not.toContain('src/schemas/gradebook.ts');
    expect(run.packages).not.toContain('csv-parse');
    // A final grade makes no new id: no crypto either.
    expect(run.builtins).not.toContain('node:crypto');
  });

  it('a local write that makes an id loads node:crypto then, to draw it', () => {
    const run = loadedSources(['--db', demo.db, '--json', 'courses', 'create', '--title', 'Crypto on demand']);
    expect(run.code).toBe(0);
    expect(run.builtins).toContain('node:crypto');
  });
});

describe("the bundle's code cache (bin/load-bundle.cjs)", () => {
  /** Loads the bundle in a fresh node, as bin/coursebook does, and prints whether V8 refused the cache. */
  function load(codeCache: string | null, nodeFlags: string[] = []): { refused: unknown; exports: string[] } {
    const script = [
      `import { bundleFiles, loadBundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin/load-bundle.cjs')).href)};`,
      'const files = bundleFiles();',
      `const loaded = loadBundle(${codeCache === null ? 'files' : `{ ...files, codeCache: ${JSON.stringify(codeCache)} }`});`,
      'console.log(JSON.stringify({ refused: loaded.cacheRejected, exports: Object.keys(loaded.exports).sort() }));',
    ].join('\n');
    const run = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout) as { refused: unknown; exports: string[] };
  }

  it('the cache the build made is taken by V8 (nothing is compiled again that it holds)', () => {
    expect(load(null)).toEqual({ refused: false, exports: ['main', 'processIo', 'runCli'] });
  });

  it('a damaged cache is refused and the bundle compiles from its text; a missing one is not read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coursebook-cache-'));
    try {
      const damaged = join(dir, 'damaged.v8cache');
      writeFileSync(damaged, Buffer.alloc(4096, 7));
      expect(load(damaged)).toEqual({ refused: true, exports: ['main', 'processIo', 'runCli'] });
      expect(load(join(dir, 'missing.v8cache'))).toEqual({ refused: null, exports: ['main', 'processIo', 'runCli'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the binary answers as before with the cache refused', () => {
    // The cache was made without V8's --max-lazy: under it V8 refuses the cache.
    expect(load(null, ['--max-lazy']).refused).toBe(true);
    const plain = spawnSync(process.execPath, [BIN, '--db', demo.db, '--json', 'courses', 'list'], { encoding: 'utf8', env: { ...process.env, ...demo.env } });
    const refused = spawnSync(process.execPath, ['--max-lazy', BIN, '--db', demo.db, '--json', 'courses', 'list'], {
      encoding: 'utf8',
      env: { ...process.env, ...demo.env },
    });
    expect(plain.status).toBe(0);
    expect(refused.stdout).toBe(plain.stdout);
    expect(refused.status).toBe(0);
  });

  it("the bundle's content-hashed name is the build that keys serve's seed images; an unbundled module has none", () => {
    expect(bundledBuild(BUNDLE_URL)).toMatch(/^coursebook-[A-Z0-9]{8}\.cjs$/);
    expect(bundledBuild(pathToFileURL(join(ROOT, 'dist/serve/server.js')).href)).toBeNull();
  });
});
