/**
 * What a cold start of the built binary loads (the Performance issue): the bundle's chunks
 * a run reads, named by the sources their maps list. A command loads its own group and the
 * route modules its requests reach; help loads no command module and no zod; local mode
 * never loads the remote client's undici (left in node_modules), serve's HTTP server, JWT
 * or prompt packages.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { type CliStore, cliStore } from '../helpers/cli-store.js';

const BUNDLE = join(ROOT, 'dist/bundle');

let demo: CliStore;
let hooks: string;
beforeAll(async () => {
  demo = await cliStore();
  // A module hook that names each bundle file as node loads it.
  writeFileSync(
    join(demo.dir, 'hooks.mjs'),
    'export async function load(url, context, next) { if (url.startsWith("file:")) process._rawDebug("loaded " + url); return next(url, context); }\n',
  );
  hooks = join(demo.dir, 'register.mjs');
  writeFileSync(hooks, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${join(demo.dir, 'hooks.mjs')}`)});\n`);
});
afterAll(() => demo.cleanup());

/**
 * What one run loads: the sources of the bundle files it reads (src/... files, and packages
 * by name), and the packages it loads from node_modules itself (those the bundle leaves there).
 */
function loadedSources(args: string[]): { code: number | null; src: string[]; packages: string[] } {
  const run = spawnSync(process.execPath, ['--import', hooks, BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...demo.env, CI: '1' } });
  const sources = new Set<string>();
  for (const [, url] of run.stderr.matchAll(/^loaded (\S+)$/gm)) {
    const path = fileURLToPath(url!);
    if (!path.startsWith(`${BUNDLE}/`)) {
      sources.add(path);
      continue;
    }
    const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) sources.add(source.replace(/^(\.\.\/)+/, ''));
  }
  const packages = new Set([...sources].flatMap((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1] ?? []));
  return { code: run.status, src: [...sources].filter((s) => s.startsWith('src/')), packages: [...packages].sort() };
}

describe('a cold start of the bundle', () => {
  it('`--help` loads no command module, no schema and no zod', () => {
    const run = loadedSources(['--help']);
    expect(run.code).toBe(0);
    expect(run.src.filter((s) => s.startsWith('src/commands/')).sort()).toEqual([
      'src/commands/catalog.ts',
      'src/commands/examples.ts',
      'src/commands/gradebook-setup-change.ts',
    ]);
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
    expect(run.src).not.toContain('src/schemas/gradebook.ts');
    for (const notHere of ['undici', '@hono/node-server', 'jose', '@inquirer/prompts', 'jmespath', 'csv-parse']) expect(run.packages).not.toContain(notHere);
    expect(run.src).not.toContain('src/serve/server.ts');
  });

  it('a local write loads the gradebook routes alone', () => {
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
    expect(run.src.filter((s) => s.startsWith('src/api/routes/'))).toEqual(['src/api/routes/gradebook.ts']);
    expect(run.packages).not.toContain('csv-parse');
  });
});
