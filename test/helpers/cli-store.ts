/**
 * A local store for in-process CLI tests: a temp home (its own XDG folders) and a store
 * file loaded with the demo dataset (data/demo.json: course crs_data101, users, tokens,
 * submissions, a weighted gradebook) or a dataset of the test's own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { type CliResult, type InProcessOptions, ROOT, runCli, scriptedPrompter, tempHome } from './cli.js';

export const DEMO_DATASET = join(ROOT, 'data/demo.json');

export interface CliStore {
  dir: string;
  db: string;
  env: Record<string, string>;
  /** Run the CLI against this store (`--db` is added in front). */
  run(args: string[], options?: InProcessOptions): Promise<CliResult>;
  /** The same, asserting exit 0, answering stdout. */
  ok(args: string[], options?: InProcessOptions): Promise<string>;
  cleanup(): void;
}

export async function cliStore(dataset: 'demo' | 'empty' | Record<string, unknown> = 'demo'): Promise<CliStore> {
  const home = tempHome();
  const run = (args: string[], options: InProcessOptions = {}) => runCli(['--db', home.db, ...args], { ...options, env: { ...home.env, ...options.env } });
  // An empty store exists already (as a new store after its first command), with no records.
  if (dataset === 'empty') await (await openStore(home.db)).close();
  else {
    let file = DEMO_DATASET;
    if (dataset !== 'demo') {
      file = join(home.dir, 'dataset.json');
      writeFileSync(file, JSON.stringify(dataset));
    }
    const imported = await run(['import', file]);
    if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
  }
  return {
    dir: home.dir,
    db: home.db,
    env: home.env,
    run,
    async ok(args, options) {
      const res = await run(args, options);
      if (res.code !== 0) throw new Error(`coursebook ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
      return res.stdout;
    },
    cleanup: home.cleanup,
  };
}

/**
 * Stores made for one test file, cleaned up after it: `newStore()` inside a test or a
 * `beforeAll` gives a fresh store (about 25 ms with the demo data).
 */
export function storesForThisFile(): (dataset?: Parameters<typeof cliStore>[0]) => Promise<CliStore> {
  const made: CliStore[] = [];
  afterAll(() => made.forEach((s) => s.cleanup()));
  return async (dataset = 'demo') => {
    const s = await cliStore(dataset);
    made.push(s);
    return s;
  };
}

/** A fresh demo store for the enclosing describe block. */
export function demoStore(): Pick<CliStore, 'run' | 'ok'> & { readonly dir: string } {
  let store: CliStore | undefined;
  beforeAll(async () => {
    store = await cliStore();
  });
  afterAll(() => store?.cleanup());
  return {
    run: (args: string[], options?: InProcessOptions) => store!.run(args, options),
    ok: (args: string[], options?: InProcessOptions) => store!.ok(args, options),
    get dir() {
      return store!.dir;
    },
  };
}

/** A piped field list (`key\tvalue` lines) as an object. */
export const fields = (out: string): Record<string, string> =>
  Object.fromEntries(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1)]),
  );

/** Piped table rows as cells. */
export const rows = (out: string): string[][] =>
  out
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));

/** An error: the exit code, nothing on stdout, and this stderr (exact text, or a pattern). */
export function expectError(res: CliResult, code: number, stderr: string | RegExp): void {
  expect(res.stderr).toEqual(typeof stderr === 'string' ? stderr : expect.stringMatching(stderr));
  expect(res.code).toBe(code);
  expect(res.stdout).toBe('');
}

/** A file that cannot be read (or written) is the user's mistake: a usage error naming it, no stack trace. */
export function expectFileError(res: CliResult, path: string): void {
  expect(res.stderr).not.toContain('unexpected failure');
  expect(res.stderr).not.toMatch(/\n\s+at /);
  expect(res.stderr).toContain(path);
  expect(res.code).toBe(2);
}

/** Terminal streams with CI unset (the CLI may prompt), answering from a script. */
export const interactive = (answers: unknown[]) => {
  const prompter = scriptedPrompter(answers);
  return { prompter, options: { tty: { stdin: true, stdout: true }, env: { CI: '' }, prompter } satisfies InProcessOptions };
};
